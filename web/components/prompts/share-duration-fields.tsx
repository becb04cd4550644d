import { useTranslation } from 'react-i18next';
import { MAX_SHARE_DURATION, SHARE_UNITS, type ShareUnit } from '../../api/shares';
import type { ShareDraft } from './share-draft';

/**
 * A link's lifetime as the reference's dialog asks it: a count and a unit. The one pair of fields for creating a link
 * (an empty count is permanent: `placeholder`) and for giving an existing one a new lifetime.
 */
export function ShareDurationFields({ draft, set, bad, placeholder }: { draft: ShareDraft; set: <K extends keyof ShareDraft>(k: K, v: ShareDraft[K]) => void; bad: boolean; placeholder?: string }) {
  const { t } = useTranslation();
  return (
    <div className="share__duration">
      <label className="field">
        <span className="field__label">{t('prompts.duration')}</span>
        <input
          className="input"
          type="number"
          name="duration"
          min={1}
          max={MAX_SHARE_DURATION}
          step={1}
          inputMode="numeric"
          value={draft.duration}
          aria-invalid={bad || undefined}
          onChange={(e) => set('duration', e.target.value)}
          placeholder={placeholder}
          data-testid="share-duration"
        />
      </label>
      <label className="field">
        <span className="field__label">{t('prompts.unit')}</span>
        <select className="input" name="unit" value={draft.unit} onChange={(e) => set('unit', e.target.value as ShareUnit)} data-testid="share-unit">
          {SHARE_UNITS.map((u) => (
            <option key={u} value={u}>
              {t(`prompts.units.${u}`)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
