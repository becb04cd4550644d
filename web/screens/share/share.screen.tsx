import { useTranslation } from 'react-i18next';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';

/** Stand-in for the public share page (/share/{hash}/{path}) until it is built. */
export function ShareScreen() {
  const { t } = useTranslation();
  const title = t('routes.share');
  usePageTitle(title);
  return (
    <AppLayout title={title}>
      <div className="placeholder" data-testid="placeholder">
        <p className="placeholder__lead">{t('placeholder.comingSoon')}</p>
        <p className="placeholder__text">{t('placeholder.share')}</p>
      </div>
    </AppLayout>
  );
}
