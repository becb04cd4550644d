import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../api/audit';
import { formatExact } from '../ui/format';

/** The audit entries: time, user, address, action, target, outcome. Below 600 px each row becomes a small card. */
export function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  const { t, i18n } = useTranslation();
  const who = (e: AuditEntry) => (e.userName === 'cli' && e.userId === null ? t('settings.audit.cli') : e.userName || t('settings.audit.anonymous'));

  return (
    <div className="settings-table-wrap">
      <table className="settings-table audit-table" data-testid="audit-table">
        <thead>
          <tr>
            <th scope="col">{t('settings.audit.time')}</th>
            <th scope="col">{t('settings.audit.user')}</th>
            <th scope="col">{t('settings.audit.address')}</th>
            <th scope="col">{t('settings.audit.action')}</th>
            <th scope="col">{t('settings.audit.target')}</th>
            <th scope="col">{t('settings.audit.outcome')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-testid="audit-row" data-action={e.action}>
              <td data-label={t('settings.audit.time')}><time dateTime={new Date(e.time).toISOString()}>{formatExact(e.time, i18n.language)}</time></td>
              <td data-label={t('settings.audit.user')}>{who(e)}</td>
              <td data-label={t('settings.audit.address')}><span className="audit-table__mono">{e.address}</span></td>
              <td data-label={t('settings.audit.action')}>{t(`settings.audit.actions.${e.action.replace('.', '_') as 'login'}`)}</td>
              <td data-label={t('settings.audit.target')} className="audit-table__target" title={Object.keys(e.detail).length ? JSON.stringify(e.detail) : undefined}>{e.target}</td>
              <td data-label={t('settings.audit.outcome')}>
                <span className={`audit-outcome audit-outcome--${e.outcome}`}>{t(`settings.audit.outcomes.${e.outcome}`)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
