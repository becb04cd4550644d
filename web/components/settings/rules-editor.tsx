import { useTranslation } from 'react-i18next';
import type { Rule } from '../../../server/contract/user';
import { ExtraIcon } from '../share-page/icons';

interface Props {
  rules: readonly Rule[];
  onChange: (rules: Rule[]) => void;
  /** Distinguishes two editors' inputs for tests and labels ("global", "user"). */
  id: string;
}

const text = (r: Rule) => (r.regex ? (r.regexp?.raw ?? '') : r.path);

/** Allow/deny rules by path or regex; the last matching rule wins. Enter in a rule's field never submits the form. */
export function RulesEditor({ rules, onChange, id }: Props) {
  const { t } = useTranslation();
  const update = (i: number, patch: Partial<{ allow: boolean; regex: boolean; value: string }>) => {
    onChange(
      rules.map((r, j) => {
        if (j !== i) return { ...r };
        const allow = patch.allow ?? r.allow;
        const regex = patch.regex ?? r.regex;
        const value = patch.value ?? text(r);
        return regex ? { allow, regex, path: '', regexp: { raw: value } } : { allow, regex, path: value, regexp: null };
      }),
    );
  };

  return (
    <fieldset className="settings-rules" data-testid={`rules-${id}`}>
      <legend className="field__label">{t('settings.rules.title')}</legend>
      <p className="settings-help">{t('settings.rules.help')}</p>
      {rules.length > 0 && (
        <ul className="settings-rules__list">
          {rules.map((r, i) => (
            <li key={i} className="settings-rule" data-testid="rule">
              <select
                className="input settings-rule__mode" value={r.allow ? 'allow' : 'deny'} aria-label={t('settings.rules.mode')}
                onChange={(e) => update(i, { allow: e.target.value === 'allow' })} data-testid="rule-mode"
              >
                <option value="allow">{t('settings.rules.allow')}</option>
                <option value="deny">{t('settings.rules.deny')}</option>
              </select>
              <label className="settings-rule__regex">
                <input type="checkbox" checked={r.regex} onChange={(e) => update(i, { regex: e.target.checked })} data-testid="rule-regex" />
                <span>{t('settings.rules.regex')}</span>
              </label>
              <input
                className="input settings-rule__value" value={text(r)} aria-label={t(r.regex ? 'settings.rules.pattern' : 'settings.rules.path')}
                placeholder={t(r.regex ? 'settings.rules.patternPlaceholder' : 'settings.rules.pathPlaceholder')}
                spellCheck={false} autoCapitalize="off" data-testid="rule-value"
                onChange={(e) => update(i, { value: e.target.value })}
                onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
              />
              <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={() => onChange(rules.filter((_, j) => j !== i).map((x) => ({ ...x })))} aria-label={t('settings.rules.remove')} data-testid="rule-remove">
                <ExtraIcon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn--secondary settings-rules__add" onClick={() => onChange([...rules.map((x) => ({ ...x })), { allow: false, regex: false, path: '', regexp: null }])} data-testid="rule-add">
        <ExtraIcon name="plus" />
        <span>{t('settings.rules.add')}</span>
      </button>
    </fieldset>
  );
}
