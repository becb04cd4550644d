import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Icon } from './icon';

/** Error-page wording by status: 0 = no connection, 403, 404, anything else = internal error. */
function messageKey(status: number) {
  if (status === 0) return 'errors.connection' as const;
  if (status === 403) return 'errors.forbidden' as const;
  if (status === 404) return 'errors.notFound' as const;
  return 'errors.internal' as const;
}

/**
 * The error page body shown by the error routes and by the files view when a load fails. Never a dead end: Retry
 * (loads the page again, or `onRetry`) and a way Home.
 */
export function ErrorState({ status, onRetry }: { status: number; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="error-state" data-testid="error-state" data-status={status}>
      <Icon name="alert" className="error-state__icon" />
      {status > 0 && <p className="error-state__code">{status}</p>}
      <p className="error-state__message">{t(messageKey(status))}</p>
      <div className="error-state__actions">
        <button type="button" className="btn btn--primary" onClick={onRetry ?? (() => window.location.reload())} data-testid="error-retry">
          {t('states.retry')}
        </button>
        <Link href="/files/" className="btn btn--secondary" data-testid="error-home">
          <Icon name="home" />
          {t('errors.goHome')}
        </Link>
      </div>
    </div>
  );
}
