import type { Share } from '../../server/contract/share';
import { createShare, deleteShare, fetchSharesOf, shareUrl, type NewShare } from '../api/shares';
import { showError, showSuccess } from '../state/notices.state';

export { shareUrl };

/** Links in the order the share dialog lists them: permanent first, then by expiry. */
export function sortLinks(list: readonly Share[]): Share[] {
  return [...list].sort((a, b) => (a.expire === 0 ? 0 : 1) - (b.expire === 0 ? 0 : 1) || a.expire - b.expire);
}

/**
 * The links of an item, as the share dialog opens: when there are none, one permanent link without a password is
 * created and the list is read again.
 */
export async function openLinks(path: string): Promise<Share[]> {
  let list = await fetchSharesOf(path);
  if (list.length === 0) {
    await createShare(path);
    list = await fetchSharesOf(path);
  }
  return sortLinks(list);
}

export async function linksOf(path: string): Promise<Share[]> {
  return sortLinks(await fetchSharesOf(path));
}

export async function removeLink(hash: string): Promise<boolean> {
  try {
    await deleteShare(hash);
    showSuccess('notices.shareDeleted');
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

export { copyText } from '../state/copy-text';
