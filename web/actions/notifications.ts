import { fetchAllShares } from '../api/shares';
import { encodePath } from '../api/resources';
import { goTo } from '../state/navigation';
import { markRead } from '../state/notifications';
import { showError } from '../state/notices.state';
import { closePrompt } from '../state/prompts.state';

/**
 * Opens the folder files arrived in: a notification names its link by hash, so the link's path is looked up among
 * the user's links (a link deleted since says so). The notification is marked read either way.
 */
export async function openNotification(id: number, hash: string): Promise<void> {
  void markRead(id).catch(() => {});
  try {
    const share = (await fetchAllShares()).find((s) => s.hash === hash);
    if (!share) return showError(null, 'notifications.gone');
    closePrompt();
    goTo(`/files${encodePath(share.path.endsWith('/') ? share.path : `${share.path}/`)}`);
  } catch (e) {
    showError(e);
  }
}
