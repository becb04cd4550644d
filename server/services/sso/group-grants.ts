import type { DirectoryLoginSettings } from '../../contract/accounts';
import type { Permissions, Rule } from '../../contract/user';

/** The fields a directory manages: computed afresh at every login, so a removed group takes back what it gave. */
export interface ManagedFields {
  perm: Permissions;
  scope: string;
  rules: Rule[];
  /** The largest quota of the user's groups (0 = none). Not stored yet: quotas are issue 35. */
  quota: number;
}

/** Groups as providers send them: a list, or one string separated by commas or spaces. Anything else: none. */
export function groupList(v: unknown): string[] {
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(v)) return v.filter((g): g is string => typeof g === 'string').map((g) => g.trim()).filter(Boolean);
  return [];
}

/** Whether `groups` holds `name`. LDAP names compare without case (as the directory does); OIDC claims exactly. */
export function hasGroup(groups: string[], name: string, ignoreCase: boolean): boolean {
  if (!name) return false;
  return ignoreCase ? groups.some((g) => g.toLowerCase() === name.toLowerCase()) : groups.includes(name);
}

/**
 * The managed fields from the defaults template and the grants of the groups the user has NOW. The base is what an
 * account made without an admin gets (template permissions with admin and execute off, the template's or home
 * scope, no rules of its own); each grant of a held group turns on its permissions and adds its rules, the first
 * held group with a scope sets it, the admin group (or a grant's `admin`) makes an admin.
 */
export function managedFields(section: DirectoryLoginSettings, groups: string[], template: Permissions, baseScope: string, ignoreCase: boolean): ManagedFields {
  const perm: Permissions = { ...template, admin: false, execute: false };
  let scope = '';
  const rules: Rule[] = [];
  let quota = 0;
  for (const g of section.groupGrants) {
    if (!hasGroup(groups, g.group, ignoreCase)) continue;
    for (const p of g.perm) perm[p] = true;
    if (g.admin) perm.admin = true;
    if (!scope && g.scope) scope = g.scope;
    rules.push(...g.rules);
    quota = Math.max(quota, g.quota);
  }
  if (hasGroup(groups, section.adminGroup, ignoreCase)) perm.admin = true;
  return { perm, scope: scope || baseScope, rules, quota };
}
