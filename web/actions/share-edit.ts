import type { Share, ShareChange } from '../../server/contract/share';
import { createShare, regenerateShare, updateShare, type NewShare } from '../api/shares';
import { isApiError } from '../api/client';
import { showError, showSuccess } from '../state/notices.state';

/**
 * Changes to an existing link (decision 0051). `saveLink` throws, so the edit form can show the server's reason
 * beside the fields (a taken or reserved slug); the one-click actions report through a notice.
 */
export async function saveLink(hash: string, change: ShareChange): Promise<Share> {
  const share = await updateShare(hash, change);
  showSuccess('shareEdit.saved');
  return share;
}

/**
 * Creates a link; on a refusal returns the server's reason (a taken slug, an upload mode on a file) for the form to
 * show beside its fields instead of a passing notice. null when created.
 */
export async function createLinkOrReason(path: string, opts: NewShare): Promise<string | null> {
  try {
    await createShare(path, opts);
    showSuccess('notices.shareCreated');
    return null;
  } catch (e) {
    if (!isApiError(e) || e.status === 0 || e.status >= 500) showError(e);
    return isApiError(e) ? e.message : String(e);
  }
}

/** Disables or re-enables a link; its URL and settings stay. */
export async function setLinkDisabled(hash: string, disabled: boolean): Promise<Share | null> {
  try {
    const share = await updateShare(hash, { disabled });
    showSuccess(disabled ? 'shareEdit.disabled' : 'shareEdit.enabled');
    return share;
  } catch (e) {
    showError(e);
    return null;
  }
}

/** Gives a link a new random address; the old one (and its slug) stop working. */
export async function regenerateLink(hash: string): Promise<Share | null> {
  try {
    const share = await regenerateShare(hash);
    showSuccess('shareEdit.regenerated');
    return share;
  } catch (e) {
    showError(e);
    return null;
  }
}

/** The public address the owner hands out: the readable name when there is one, else the hash. */
export function linkName(share: Pick<Share, 'hash' | 'slug'>): string {
  return share.slug || share.hash;
}
