import { useTranslation } from 'react-i18next';
import type { TrashOverride, TrashSettings } from '../../../server/contract/trash';
import { Checkbox } from './checkbox';
import { TrashFields } from './trash-fields';

interface Props {
  /** The user's override (null or absent: the global settings apply). */
  override: TrashOverride | null | undefined;
  /** The global trash settings, shown (and started from) when the override is turned on. */
  global: TrashSettings;
  onChange: (o: TrashOverride | null) => void;
}

/**
 * A user's own trash settings: ticked, the global trash fields edit a whole override (the global values under what
 * the user already had); unticked, the override is null and the global settings apply again.
 */
export function UserTrashFields({ override, global, onChange }: Props) {
  const { t } = useTranslation();
  const on = !!override && Object.keys(override).length > 0;
  const effective: TrashSettings = { ...global, ...(override ?? {}) };
  return (
    <div className="settings-user-trash" data-testid="user-trash">
      <Checkbox
        name="trashOverride" checked={on} onChange={(v) => onChange(v ? effective : null)}
        label={t('users.trashOverride')} hint={t('users.trashOverrideHint')}
      />
      {on && <TrashFields trash={effective} onChange={onChange} />}
    </div>
  );
}
