import { useTranslation } from 'react-i18next';
import { PERMISSIONS, type PermName, type Permissions } from '../../../server/contract/user';
import { pageConfig } from '../../api/page-config';
import { Checkbox } from './checkbox';

/**
 * Applies one permission tick: admin ticks every permission (the form then disables the others); sharing needs
 * downloading, so ticking share ticks download and unticking download unticks share.
 */
export function tickPermission(perm: Readonly<Permissions>, name: PermName, on: boolean): Permissions {
  const next = { ...perm, [name]: on };
  if (name === 'admin' && on) for (const p of PERMISSIONS) next[p] = true;
  if (name === 'share' && on) next.download = true;
  if (name === 'download' && !on) next.share = false;
  return next;
}

/** The permission checkboxes; execute only when command execution is enabled on this server. */
export function PermissionsFields({ perm, onChange }: { perm: Readonly<Permissions>; onChange: (perm: Permissions) => void }) {
  const { t } = useTranslation();
  const shown = PERMISSIONS.filter((p) => p !== 'execute' || pageConfig.EnableExec);
  return (
    <fieldset className="settings-perms" data-testid="perms">
      <legend className="field__label">{t('users.permissions')}</legend>
      <p className="settings-help">{t('users.permissionsHelp')}</p>
      <div className="settings-perms__grid">
        {shown.map((p) => (
          <Checkbox
            key={p} name={`perm-${p}`} checked={perm[p]} disabled={p !== 'admin' && perm.admin}
            onChange={(on) => onChange(tickPermission(perm, p, on))} label={t(`users.perm.${p}`)}
          />
        ))}
      </div>
    </fieldset>
  );
}
