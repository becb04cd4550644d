import { useTranslation } from 'react-i18next';
import { pageConfig } from '../../api/page-config';
import { copyText } from '../../state/copy-text';
import { ExtraIcon } from '../share-page/icons';

/** The address desktop and phone apps mount: this origin, the base URL, then /dav/ (docs/decisions/0050-webdav.md). */
export const webdavUrl = () => `${window.location.origin}${pageConfig.BaseURL}/dav/`;

/** "Connect with WebDAV": the address to type into Finder, Explorer, Nautilus, rclone or a phone app, with a copy button. */
export function WebdavCard({ username }: { username: string }) {
  const { t } = useTranslation();
  const url = webdavUrl();
  return (
    <section className="settings-card" data-testid="webdav-card">
      <div className="settings-card__head">
        <h2 className="settings-card__title">{t('account.webdav.title')}</h2>
      </div>
      <div className="settings-card__body">
        <p className="settings-help">{t('account.webdav.help', { username })}</p>
        <div className="secret-box">
          <strong>{t('account.webdav.address')}</strong>
          <code className="secret-box__value" dir="ltr" data-testid="webdav-url">{url}</code>
          <div className="account-actions">
            <button type="button" className="btn btn--secondary settings-btn--small" onClick={() => void copyText(url, 'account.notices.copied')} data-testid="webdav-copy">
              <ExtraIcon name="copy" />
              <span>{t('account.copy')}</span>
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
