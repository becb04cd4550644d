import { useTranslation } from 'react-i18next';
import type en from '../../../locales/en.json';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';

export type RouteLabel = keyof typeof en.routes;

/** Stand-in for the settings pages until they are built. */
export function SettingsPlaceholderScreen({ label }: { label: RouteLabel }) {
  const { t } = useTranslation();
  const title = t(`routes.${label}`);
  usePageTitle(title);
  return (
    <AppLayout title={title}>
      <div className="placeholder" data-testid="placeholder">
        <p className="placeholder__lead">{t('placeholder.comingSoon')}</p>
        <p className="placeholder__text">{t('placeholder.settings')}</p>
      </div>
    </AppLayout>
  );
}
