import { useTranslation } from 'react-i18next';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';
import { ErrorState } from '../../components/ui/error-state';

const LABELS = { 403: 'routes.forbidden', 404: 'routes.notFound', 500: 'routes.internalError' } as const;

/** The /403, /404 and /500 pages. */
export function ErrorScreen({ status }: { status: keyof typeof LABELS }) {
  const { t } = useTranslation();
  const label = t(LABELS[status]);
  usePageTitle(label);
  return (
    <AppLayout title={label}>
      <ErrorState status={status} showHomeLink />
    </AppLayout>
  );
}
