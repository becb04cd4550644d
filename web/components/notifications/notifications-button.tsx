import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { followNotifications, notificationsState } from '../../state/notifications';
import { showPrompt } from '../../state/prompts.state';
import { formatCount } from '../ui/format';
import '../../styles/notifications.css';

/** A bell (drawn here: the shared icon set has none). */
function Bell() {
  return (
    <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0" />
    </svg>
  );
}

/**
 * The sidebar's Notifications item with the unread count as a badge; it keeps the count fresh while mounted
 * (polling while the page is visible) and opens the list.
 */
export function NotificationsButton() {
  const { t, i18n } = useTranslation();
  const { unread } = useSnapshot(notificationsState);
  useEffect(() => followNotifications(), []);
  const label = unread ? t('notifications.badge', { n: unread }) : t('notifications.title');
  return (
    <button type="button" className="nav__item notifications__nav" aria-label={label} title={label} onClick={() => showPrompt('notifications')} data-testid="nav-notifications">
      <span className="notifications__bell">
        <Bell />
        {unread > 0 && (
          <span className="notifications__badge" aria-hidden="true" data-testid="notifications-badge">
            {unread > 99 ? '99+' : formatCount(unread, i18n.language)}
          </span>
        )}
      </span>
      <span>{t('notifications.title')}</span>
    </button>
  );
}
