import { useTranslation } from 'react-i18next';
import type { DirectoryLoginSettings } from '../../../../server/contract/accounts';
import { Checkbox } from '../checkbox';
import { GroupGrantsEditor } from './group-grants-editor';
import { ListField, TextField } from './text-fields';

/** What OpenID Connect and LDAP share: who may sign in, whether accounts are made, the admin group and group grants. */
export function DirectoryFields<T extends DirectoryLoginSettings>({ id, value, onChange }: { id: 'oidc' | 'ldap'; value: T; onChange: (v: T) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof DirectoryLoginSettings>(k: K, v: T[K]) => onChange({ ...value, [k]: v });
  return (
    <>
      <ListField name={`${id}-allowedGroups`} label={t('signIn.allowedGroups')} help={t('signIn.allowedGroupsHelp')} value={value.allowedGroups} onChange={(v) => set('allowedGroups', v)} />
      <TextField name={`${id}-adminGroup`} label={t('signIn.adminGroup')} mono value={value.adminGroup} onChange={(v) => set('adminGroup', v)} />
      <Checkbox name={`${id}-createUsers`} checked={value.createUsers} onChange={(v) => set('createUsers', v)} label={t('signIn.createUsers')} hint={t('signIn.createUsersHelp')} />
      <GroupGrantsEditor id={id} grants={value.groupGrants} onChange={(g) => set('groupGrants', g)} />
    </>
  );
}
