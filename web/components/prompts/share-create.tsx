import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_SHARE_DURATION, SHARE_UNITS, type NewShare, type ShareUnit } from '../../api/shares';
import { PromptButton, PromptFrame } from './prompt-frame';

/** Create mode of the share dialog: a duration (empty = permanent) in a unit, and an optional password. */
export function ShareCreate({ name, onCreate, onCancel }: { name: string; onCreate(opts: NewShare): Promise<void>; onCancel(): void }) {
  const { t } = useTranslation();
  const [duration, setDuration] = useState('');
  const [unit, setUnit] = useState<ShareUnit>('hours');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const n = duration.trim() === '' ? 0 : Number(duration);
  const valid = Number.isInteger(n) && n >= 0 && n <= MAX_SHARE_DURATION;
  const submit = async () => {
    if (!valid || busy) return;
    setBusy(true);
    await onCreate({ password, unit, ...(n > 0 ? { expires: n } : {}) });
    setBusy(false);
  };
  return (
    <PromptFrame
      title={t('prompts.shareTitle')}
      testId="share-create"
      onSubmit={() => void submit()}
      wide
      actions={
        <>
          <PromptButton label={t('buttons.cancel')} onClick={onCancel} testId="prompt-cancel" />
          <PromptButton kind="primary" submit label={t('buttons.create')} testId="prompt-confirm" disabled={!valid || busy} />
        </>
      }
    >
      <p className="prompt__subject">{name}</p>
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
            value={duration}
            onChange={(e) => setDuration(e.target.value)}
            placeholder={t('prompts.permanent')}
            data-testid="share-duration"
          />
        </label>
        <label className="field">
          <span className="field__label">{t('prompts.unit')}</span>
          <select className="input" name="unit" value={unit} onChange={(e) => setUnit(e.target.value as ShareUnit)} data-testid="share-unit">
            {SHARE_UNITS.map((u) => (
              <option key={u} value={u}>
                {t(`prompts.units.${u}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="prompt__hint">{t('prompts.durationHint')}</p>
      <label className="field">
        <span className="field__label">{t('prompts.optionalPassword')}</span>
        <input className="input" type="password" name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="share-password" />
      </label>
    </PromptFrame>
  );
}
