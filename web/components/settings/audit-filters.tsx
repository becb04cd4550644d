import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditFilter } from '../../api/audit';

/** datetime-local text (the browser's local time) to an ISO instant the API reads; '' stays ''. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : '');
const fromIso = (iso?: string) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The audit screen's filters: user, action, from/until and free text; applied together with one button. */
export function AuditFilters({ value, onApply }: { value: AuditFilter; onApply: (f: AuditFilter) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ ...value, since: fromIso(value.since), until: fromIso(value.until) });
  const set = (k: keyof AuditFilter, v: string) => setDraft({ ...draft, [k]: v });
  const apply = () => onApply({ user: draft.user?.trim(), action: draft.action, since: toIso(draft.since ?? ''), until: toIso(draft.until ?? ''), text: draft.text?.trim() });
  const reset = () => {
    setDraft({ since: '', until: '' });
    onApply({});
  };

  return (
    <form className="audit-filters" aria-label={t('settings.audit.filters')} onSubmit={(e) => { e.preventDefault(); apply(); }} data-testid="audit-filters">
      <label className="field">
        <span className="field__label">{t('settings.audit.user')}</span>
        <input className="input" name="user" autoCapitalize="off" spellCheck={false} value={draft.user ?? ''} onChange={(e) => set('user', e.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{t('settings.audit.action')}</span>
        <select className="input" name="action" value={draft.action ?? ''} onChange={(e) => set('action', e.target.value)}>
          <option value="">{t('settings.audit.anyAction')}</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>{t(`settings.audit.actions.${a.replace('.', '_') as 'login'}`)}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">{t('settings.audit.since')}</span>
        <input className="input" name="since" type="datetime-local" value={draft.since ?? ''} onChange={(e) => set('since', e.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{t('settings.audit.until')}</span>
        <input className="input" name="until" type="datetime-local" value={draft.until ?? ''} onChange={(e) => set('until', e.target.value)} />
      </label>
      <label className="field audit-filters__text">
        <span className="field__label">{t('settings.audit.text')}</span>
        <input className="input" name="text" type="search" placeholder={t('settings.audit.textPlaceholder')} value={draft.text ?? ''} onChange={(e) => set('text', e.target.value)} />
      </label>
      <div className="audit-filters__buttons">
        <button type="button" className="btn btn--secondary" onClick={reset} data-testid="audit-reset">{t('settings.audit.reset')}</button>
        <button type="submit" className="btn btn--primary" data-testid="audit-apply">{t('settings.audit.apply')}</button>
      </div>
    </form>
  );
}
