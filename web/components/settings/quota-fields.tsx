import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quota } from '../../../server/contract/versions';
import { WholeNumberField } from './whole-number-field';

/** The units the size is typed in; 1024-based, as every size the app shows (formatSize). */
const UNITS = [
  { id: 'MB', bytes: 1024 ** 2 },
  { id: 'GB', bytes: 1024 ** 3 },
  { id: 'TB', bytes: 1024 ** 4 },
] as const;
type Unit = (typeof UNITS)[number]['id'];

const MAX_AMOUNT = 1_000_000;
const MAX_FILES = 1_000_000_000;

/** The largest unit that shows the stored size as a whole number (5 GB, not 5120 MB). */
function unitFor(bytes: number): Unit {
  for (let k = UNITS.length - 1; k > 0; k--) if (bytes >= UNITS[k]!.bytes && bytes % UNITS[k]!.bytes === 0) return UNITS[k]!.id;
  return 'GB';
}

const bytesOf = (unit: Unit) => UNITS.find((u) => u.id === unit)!.bytes;

/**
 * A user's (or the defaults template's) quota: a size with a unit picker and a file count, 0 = no limit on that
 * measure; both 0 store no quota at all (null).
 */
export function QuotaFields({ quota, onChange }: { quota: Quota | null | undefined; onChange: (q: Quota | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const bytes = quota?.bytes ?? 0;
  const files = quota?.files ?? 0;
  const [unit, setUnit] = useState<Unit>(() => unitFor(bytes));
  const amount = Math.round(bytes / bytesOf(unit));
  const put = (b: number, f: number) => onChange(b || f ? { bytes: b, files: f } : null);
  return (
    <div className="field" role="group" aria-labelledby={`${id}-title`} data-testid="quota-fields">
      <span className="field__label" id={`${id}-title`}>{t('users.quota.title')}</span>
      <div className="settings-quota__size">
        <WholeNumberField
          name="quotaAmount" label={t('users.quota.size')} value={amount} min={0} max={MAX_AMOUNT}
          onChange={(n) => put(n * bytesOf(unit), files)}
        />
        <label className="field">
          <span className="field__label">{t('users.quota.unit')}</span>
          <select
            className="input" name="quotaUnit" value={unit}
            onChange={(e) => {
              const next = e.target.value as Unit;
              setUnit(next);
              put(amount * bytesOf(next), files);
            }}
          >
            {UNITS.map((u) => <option key={u.id} value={u.id}>{t(`users.quota.unit${u.id}`)}</option>)}
          </select>
        </label>
      </div>
      <WholeNumberField name="quotaFiles" label={t('users.quota.files')} value={files} min={0} max={MAX_FILES} onChange={(n) => put(bytes, n)} />
      <span className="settings-help">{t('users.quota.help')}</span>
    </div>
  );
}
