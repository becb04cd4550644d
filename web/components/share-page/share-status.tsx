import { useTranslation } from 'react-i18next';
import { Icon } from '../ui/icon';

/** Why a link shows nothing, as far as a visitor may know; each has its own wording. */
export type ShareStatusKind = 'missing' | 'expired' | 'disabled' | 'exhausted' | 'unavailable' | 'offline' | 'failed';

/**
 * The server answers an ended link with 404 (unknown, expired, exhausted: decision 0051) or 403 (disabled, no
 * longer reachable); its message names the reason where it may. A visitor is told what it means for them.
 */
export function statusKind(status: number, message: string): ShareStatusKind {
  if (status === 0) return 'offline';
  if (/disabled/i.test(message)) return 'disabled';
  if (/exhaust|download limit/i.test(message)) return 'exhausted';
  if (/expire/i.test(message)) return 'expired';
  if (status === 404 || status === 410) return 'missing';
  if (status === 403) return 'unavailable';
  return 'failed';
}

const KEYS = {
  missing: ['sharePage.state.missingTitle', 'sharePage.state.missingText'],
  expired: ['sharePage.state.expiredTitle', 'sharePage.state.expiredText'],
  disabled: ['sharePage.state.disabledTitle', 'sharePage.state.disabledText'],
  exhausted: ['sharePage.state.exhaustedTitle', 'sharePage.state.exhaustedText'],
  unavailable: ['sharePage.state.unavailableTitle', 'sharePage.state.unavailableText'],
  offline: ['sharePage.state.offlineTitle', 'sharePage.state.offlineText'],
  failed: ['sharePage.state.failedTitle', 'sharePage.state.failedText'],
} as const;

/** A clear card for a link that leads nowhere now: expired, switched off, used up, gone, or a failed load. */
export function ShareStatus({ status, message }: { status: number; message: string }) {
  const { t } = useTranslation();
  const kind = statusKind(status, message);
  const [title, text] = KEYS[kind];
  const retry = kind === 'offline' || kind === 'failed';
  return (
    <section className="share-card share-status" data-testid="share-status" data-state={kind} data-status={status}>
      <div className="share-status__badge" aria-hidden="true">
        <Icon name={kind === 'disabled' || kind === 'unavailable' ? 'lock' : 'alert'} />
      </div>
      <h1 className="share-card__title">{t(title)}</h1>
      <p className="share-card__text">{t(text)}</p>
      {retry && (
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()} data-testid="share-status-retry">
          {t('sharePage.state.retry')}
        </button>
      )}
    </section>
  );
}
