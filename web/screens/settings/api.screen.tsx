import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ApiOperations } from '../../components/settings/api-operations';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { ErrorState } from '../../components/ui/error-state';
import { apiDocsState, loadApiDocs, setApiFilter } from '../../state/api-docs.state';
import type { ApiDocument } from '../../api/openapi';
import '../../styles/api-docs.css';

/** /settings/api (admins): the operations of the server's OpenAPI document, and a link to the document itself. */
export function ApiScreen() {
  const { t } = useTranslation();
  const { doc, error, filter } = useSnapshot(apiDocsState);

  useEffect(() => {
    void loadApiDocs();
  }, []);

  let body;
  if (error) body = <ErrorState status={error.status} />;
  else if (!doc) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  else body = <ApiOperations doc={doc as ApiDocument} filter={filter} />;

  const base = (doc?.servers[0]?.url ?? '/').replace(/\/$/, '');
  return (
    <SettingsLayout title={t('settings.api.title')}>
      <section className="settings-card">
        <div className="settings-card__head">
          <h2 className="settings-card__title">{t('settings.api.title')}</h2>
        </div>
        <div className="settings-card__body">
          <p>{t('settings.api.intro')}</p>
          <p>
            <a href={`${base}/api/openapi.json`} target="_blank" rel="noreferrer" data-testid="api-document-link">
              {t('settings.api.document')}
            </a>
          </p>
          <label className="api-filter">
            <span>{t('settings.api.filter')}</span>
            <input type="search" value={filter} onChange={(e) => setApiFilter(e.target.value)} data-testid="api-filter" />
          </label>
          {body}
        </div>
      </section>
    </SettingsLayout>
  );
}
