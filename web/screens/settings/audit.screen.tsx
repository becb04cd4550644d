import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { AuditFilters } from '../../components/settings/audit-filters';
import { AuditTable } from '../../components/settings/audit-table';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { ErrorState } from '../../components/ui/error-state';
import { applyAuditFilter, auditState, loadAudit } from '../../state/audit.state';
import '../../styles/audit.css';

/** /settings/audit (admins): the audit log with filters and "load more" paging. */
export function AuditScreen() {
  const { t } = useTranslation();
  const { entries, next, loading, error, filter } = useSnapshot(auditState);

  useEffect(() => {
    void loadAudit(false);
  }, []);

  let body;
  if (error && error.status !== 400) body = <ErrorState status={error.status} />;
  else if (!entries) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  else if (!entries.length) body = <p className="settings-empty" data-testid="audit-empty">{t('settings.audit.empty')}</p>;
  else body = <AuditTable entries={entries} />;

  return (
    <SettingsLayout title={t('routes.audit')}>
      <section className="settings-card">
        <div className="settings-card__head">
          <h2 className="settings-card__title">{t('settings.audit.title')}</h2>
        </div>
        <div className="settings-card__body">
          <p className="settings-help">{t('settings.audit.help')}</p>
          <AuditFilters value={filter} onApply={(f) => void applyAuditFilter(f)} />
          {error?.status === 400 && <p className="settings-field-error" role="alert" data-testid="audit-error">{error.message}</p>}
        </div>
        <div className="settings-card__body settings-card__body--flush">{body}</div>
        {next && (
          <div className="settings-card__actions">
            <button type="button" className="btn btn--secondary" disabled={loading} onClick={() => void loadAudit(true)} data-testid="audit-more">{t('settings.audit.more')}</button>
          </div>
        )}
      </section>
    </SettingsLayout>
  );
}
