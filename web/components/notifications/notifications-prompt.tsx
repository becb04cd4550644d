import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { openNotification } from '../../actions/notifications';
import { markAllRead, notificationsState, refreshNotifications } from '../../state/notifications';
import { showError } from '../../state/notices.state';
import { closePrompt } from '../../state/prompts.state';
import { PromptButton, PromptFrame } from '../prompts/prompt-frame';
import { formatSize } from '../ui/format';
import { RelativeTime } from '../ui/relative-time';
import '../../styles/notifications.css';

/** The notifications list: which link, how many files, how much, when; a click opens the folder. */
export function NotificationsPrompt() {
  const { t, i18n } = useTranslation();
  const { items, unread, loaded } = useSnapshot(notificationsState);
  useEffect(() => {
    void refreshNotifications();
  }, []);
  return (
    <PromptFrame
      title={t('notifications.title')}
      testId="notifications"
      onSubmit={closePrompt}
      wide
      actions={
        <>
          <PromptButton label={t('notifications.markAllRead')} onClick={() => void markAllRead().catch(showError)} testId="notifications-read-all" disabled={unread === 0} />
          <PromptButton kind="primary" submit label={t('buttons.close')} testId="prompt-confirm" />
        </>
      }
    >
      {!loaded ? (
        <p className="status-text">{t('files.loading')}</p>
      ) : items.length === 0 ? (
        <p className="status-text" data-testid="notifications-empty">{t('notifications.empty')}</p>
      ) : (
        <ul className="notifications__list" data-testid="notifications-list">
          {items.map((n) => (
            <li key={n.id}>
              <button type="button" className={n.read ? 'notifications__item' : 'notifications__item is-unread'} onClick={() => void openNotification(n.id, n.hash)} data-testid="notification" data-read={n.read}>
                <span className="notifications__title">
                  {!n.read && <span className="notifications__dot" aria-label={t('notifications.unread')} role="img" />}
                  {t('notifications.arrived', { name: n.name })}
                </span>
                <span className="notifications__meta">
                  <span>{t('notifications.files', { n: n.files })}</span>
                  <span>{t('notifications.size', { size: formatSize(n.bytes, i18n.language) })}</span>
                  <RelativeTime at={n.time} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </PromptFrame>
  );
}
