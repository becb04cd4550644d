import { useTranslation } from 'react-i18next';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';
import { ErrorState } from '../../components/ui/error-state';
import '../../styles/errors.css';

/** Page labels by status; 0 = the server could not be reached. */
const LABELS = { 0: 'errors.connectionTitle', 403: 'routes.forbidden', 404: 'routes.notFound', 500: 'routes.internalError' } as const;

/** The /403, /404 and /500 pages (and the connection page): the status, the spec's message, a way back. */
export function ErrorScreen({ status }: { status: keyof typeof LABELS }) {
  const { t } = useTranslation();
  const label = t(LABELS[status]);
  usePageTitle(label);
  return (
    <AppLayout title={label}>
      <div className="error-page" data-testid={`error-page-${status}`}>
        <ErrorState status={status} />
        {window.history.length > 1 && (
          <button type="button" className="link-button error-page__back" onClick={() => window.history.back()} data-testid="error-back">
            {t('errors.goBack')}
          </button>
        )}
      </div>
    </AppLayout>
  );
}
