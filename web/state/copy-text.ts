import { showError, showSuccess } from './notices.state';

/** Copies text to the clipboard (the async API where allowed, else a hidden text field) and says so. */
export async function copyText(text: string, notice = 'notices.linkCopied'): Promise<void> {
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error('no async clipboard');
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) return showError(null, 'notices.copyFailed');
  }
  showSuccess(notice);
}
