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
  // The name comes from the content ("Notifications", then the badge read as "Unread: 3"), so what is seen is part
  // of what is heard; the bell is drawn first by CSS order.
  return (
    <button type="button" className="nav__item notifications__nav" title={label} onClick={() => showPrompt('notifications')} data-testid="nav-notifications">
      <span>{t('notifications.title')}</span>
      <span className="notifications__bell">
        <Bell />
        {unread > 0 && (
          <span className="notifications__badge" data-testid="notifications-badge">
            <span className="sr-only">{t('notifications.unread')}: </span>
            <span className="notifications__count" data-testid="notifications-count">{unread > 99 ? '99+' : formatCount(unread, i18n.language)}</span>
          </span>
        )}
      </span>
    </button>
  );
}
