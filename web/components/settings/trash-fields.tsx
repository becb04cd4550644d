import { useTranslation } from 'react-i18next';
import type { TrashSettings } from '../../../server/contract/trash';
import { Checkbox } from './checkbox';

const MB = 1024 * 1024;

/** The global trash settings: on/off, retention in days (0 = until emptied), size cap per user in MB (0 = none). */
export function TrashFields({ trash, onChange }: { trash: TrashSettings; onChange: (t: TrashSettings) => void }) {
  const { t } = useTranslation();
  const whole = (v: string) => Math.max(0, Math.floor(Number(v) || 0));
  return (
    <div className="field" role="group" aria-labelledby="settings-trash-title" data-testid="trash-fields">
      <span className="field__label" id="settings-trash-title">{t('trash.settings.title')}</span>
      <Checkbox name="trashEnabled" checked={trash.enabled} onChange={(enabled) => onChange({ ...trash, enabled })} label={t('trash.settings.enabled')} />
      <label className="field">
        <span className="field__label">{t('trash.settings.retentionDays')}</span>
        <input
          className="input settings-input--short" name="trashRetentionDays" type="number" min={0} max={36500}
          value={trash.retentionDays} onChange={(e) => onChange({ ...trash, retentionDays: whole(e.target.value) })}
        />
      </label>
      <label className="field">
        <span className="field__label">{t('trash.settings.maxMegabytes')}</span>
        <input
          className="input settings-input--short" name="trashMaxMegabytes" type="number" min={0}
          value={Math.round(trash.maxBytes / MB)} onChange={(e) => onChange({ ...trash, maxBytes: whole(e.target.value) * MB })}
        />
      </label>
      <span className="settings-help">{t('trash.settings.help')}</span>
    </div>
  );
}
