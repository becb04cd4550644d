import { useTranslation } from 'react-i18next';
import type { GroupGrant } from '../../../../server/contract/accounts';
import { PERMISSIONS, type PermName } from '../../../../server/contract/user';
import { pageConfig } from '../../../api/page-config';
import { ExtraIcon } from '../../share-page/icons';
import { Checkbox } from '../checkbox';

const emptyGrant = (): GroupGrant => ({ group: '', admin: false, perm: [], scope: '', rules: [], quota: 0 });

/**
 * What each directory group gives its members (OpenID Connect and LDAP alike): admin, permissions over the defaults,
 * a scope. Re-applied at every login, so removing a member from a group takes these back. Rules and quota, set from
 * the CLI or the config file, are kept as they are.
 */
export function GroupGrantsEditor({ id, grants, onChange }: { id: string; grants: readonly GroupGrant[]; onChange: (g: GroupGrant[]) => void }) {
  const { t } = useTranslation();
  const perms = PERMISSIONS.filter((p) => p !== 'admin' && (p !== 'execute' || pageConfig.EnableExec));
  const update = (i: number, patch: Partial<GroupGrant>) => onChange(grants.map((g, j) => (j === i ? { ...g, ...patch } : g)));
  const tick = (g: GroupGrant, p: PermName, on: boolean) => (on ? [...g.perm, p] : g.perm.filter((x) => x !== p));

  return (
    <fieldset className="settings-group" data-testid={`${id}-grants`}>
      <legend className="field__label">{t('signIn.grants.title')}</legend>
      <p className="settings-help">{t('signIn.grants.help')}</p>
      {grants.map((g, i) => (
        <div key={i} className="group-grant" data-testid="group-grant">
          <div className="account-inline-form">
            <label className="field">
              <span className="field__label">{t('signIn.grants.group')}</span>
              <input className="input" name={`${id}-grant-group-${i}`} dir="ltr" value={g.group} onChange={(e) => update(i, { group: e.target.value })} />
            </label>
            <label className="field">
              <span className="field__label">{t('users.scope')}</span>
              <input className="input" name={`${id}-grant-scope-${i}`} dir="ltr" value={g.scope} placeholder={t('signIn.grants.scopeDefault')} onChange={(e) => update(i, { scope: e.target.value })} />
            </label>
            <button type="button" className="settings-icon-btn settings-icon-btn--danger" onClick={() => onChange(grants.filter((_, j) => j !== i))} aria-label={t('signIn.grants.remove', { group: g.group })} title={t('signIn.grants.remove', { group: g.group })}>
              <ExtraIcon name="trash" />
            </button>
          </div>
          <Checkbox name={`${id}-grant-admin-${i}`} checked={g.admin} onChange={(admin) => update(i, { admin })} label={t('users.perm.admin')} />
          <div className="settings-perms__grid">
            {perms.map((p) => (
              <Checkbox key={p} name={`${id}-grant-${p}-${i}`} checked={g.admin || g.perm.includes(p)} disabled={g.admin} onChange={(on) => update(i, { perm: tick(g, p, on) })} label={t(`users.perm.${p}`)} />
            ))}
          </div>
        </div>
      ))}
      <button type="button" className="btn btn--secondary settings-btn--small settings-rules__add" onClick={() => onChange([...grants, emptyGrant()])} data-testid={`${id}-grant-add`}>
        <ExtraIcon name="plus" />
        <span>{t('signIn.grants.add')}</span>
      </button>
    </fieldset>
  );
}
