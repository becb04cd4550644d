import { useTranslation } from 'react-i18next';
import type { VersionOverride, VersionSettings } from '../../../server/contract/versions';
import { Checkbox } from './checkbox';
import { WholeNumberField } from './whole-number-field';

const MB = 1024 * 1024;

/**
 * The version settings: on/off, maximum age in days, versions per file, megabytes per user (0 = no limit each) and
 * the share of the free space versions may take (1–100 %).
 */
export function VersionsFields({ versions, onChange }: { versions: VersionSettings; onChange: (v: VersionSettings) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof VersionSettings>(key: K, value: VersionSettings[K]) => onChange({ ...versions, [key]: value });
  return (
    <div className="field" role="group" aria-labelledby="settings-versions-title" data-testid="versions-fields">
      <span className="field__label" id="settings-versions-title">{t('versions.settings.title')}</span>
      <Checkbox name="versionsEnabled" checked={versions.enabled} onChange={(v) => set('enabled', v)} label={t('versions.settings.enabled')} hint={t('versions.settings.enabledHint')} />
      <WholeNumberField name="versionsMaxAgeDays" label={t('versions.settings.maxAgeDays')} value={versions.maxAgeDays} min={0} max={36500} onChange={(n) => set('maxAgeDays', n)} />
      <WholeNumberField name="versionsMaxPerFile" label={t('versions.settings.maxPerFile')} value={versions.maxPerFile} min={0} max={100000} onChange={(n) => set('maxPerFile', n)} />
      <WholeNumberField
        name="versionsMaxMegabytes" label={t('versions.settings.maxMegabytes')} value={Math.round(versions.maxBytesPerUser / MB)} min={0} max={1_000_000_000}
        onChange={(n) => set('maxBytesPerUser', n * MB)}
      />
      <WholeNumberField
        name="versionsMaxFreeShare" label={t('versions.settings.maxFreeSharePercent')} value={versions.maxFreeSharePercent} min={1} max={100}
        onChange={(n) => set('maxFreeSharePercent', n)}
      />
      <span className="settings-help">{t('versions.settings.help')}</span>
    </div>
  );
}

interface UserProps {
  override: VersionOverride | null | undefined;
  global: VersionSettings;
  onChange: (o: VersionOverride | null) => void;
}

/** A user's own version settings, as the trash override: ticked, a whole override from the global values; unticked, null. */
export function UserVersionsFields({ override, global, onChange }: UserProps) {
  const { t } = useTranslation();
  const on = !!override && Object.keys(override).length > 0;
  const effective: VersionSettings = { ...global, ...(override ?? {}) };
  return (
    <div className="settings-user-trash" data-testid="user-versions">
      <Checkbox
        name="versionsOverride" checked={on} onChange={(v) => onChange(v ? effective : null)}
        label={t('users.versionsOverride')} hint={t('users.versionsOverrideHint')}
      />
      {on && <VersionsFields versions={effective} onChange={onChange} />}
    </div>
  );
}
