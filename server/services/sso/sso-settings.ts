import type { AccountSettings, DirectoryLoginSettings, GroupGrant, LdapSettings, OidcSettings } from '../../contract/accounts';
import { PERMISSIONS, type PermName } from '../../contract/user';
import { invalid } from '../../core/errors';
import { normaliseRules } from '../rules/rules';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function directoryDefaults(): DirectoryLoginSettings {
  return { enabled: false, createUsers: true, allowedGroups: [], adminGroup: '', groupGrants: [] };
}

/** Sign-in methods as a fresh install has them: local passwords only. */
export function defaultAccountSettings(): AccountSettings {
  return {
    oidc: {
      ...directoryDefaults(), name: '', issuer: '', clientId: '', clientSecret: '', scopes: ['openid', 'profile', 'email'],
      usernameClaim: 'preferred_username', groupsClaim: 'groups', logoutAtProvider: false,
    },
    ldap: {
      ...directoryDefaults(), url: '', startTls: false, caFile: '', bindDn: '', bindPassword: '', userBase: '',
      userFilter: '(uid={username})', usernameAttribute: 'uid', groupBase: '', groupFilter: '(member={dn})', groupNameAttribute: 'cn',
    },
    twoFactor: { required: false },
    localLogin: true,
  };
}

function text(v: unknown, name: string, max = 2048): string {
  if (typeof v !== 'string' || v.length > max) throw invalid(`${name} must be text of at most ${max} characters`);
  if (/[\x00-\x1f\x7f]/.test(v)) throw invalid(`${name} contains control characters`);
  return v.trim();
}

function flag(v: unknown, name: string): boolean {
  if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`);
  return v;
}

function texts(v: unknown, name: string): string[] {
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  if (!Array.isArray(v) || v.length > 256) throw invalid(`${name} must be a list of text`);
  return v.map((x, i) => text(x, `${name}[${i}]`, 256)).filter(Boolean);
}

function grant(v: unknown, name: string): GroupGrant {
  if (!isObj(v)) throw invalid(`${name} must be an object`);
  const perm = texts(v.perm ?? [], `${name}.perm`);
  for (const p of perm) if (!(PERMISSIONS as readonly string[]).includes(p)) throw invalid(`${name}.perm: unknown permission "${p}"`);
  const quota = v.quota ?? 0;
  if (typeof quota !== 'number' || !Number.isSafeInteger(quota) || quota < 0) throw invalid(`${name}.quota must be a whole number of bytes`);
  return {
    group: text(v.group, `${name}.group`, 256),
    admin: v.admin === undefined ? false : flag(v.admin, `${name}.admin`),
    perm: perm as PermName[],
    scope: v.scope === undefined ? '' : text(v.scope, `${name}.scope`, 1024),
    rules: v.rules === undefined ? [] : normaliseRules(v.rules, `${name}.rules`),
    quota,
  };
}

/** Secrets are write-only: "" (or absent) in a PUT keeps the stored one. */
const SECRET_FIELDS = new Set(['clientSecret', 'bindPassword']);

function mergeSection<T extends DirectoryLoginSettings>(current: T, v: unknown, name: string): T {
  if (!isObj(v)) throw invalid(`${name} must be an object`);
  const next = { ...current } as Record<string, unknown>;
  for (const [k, fv] of Object.entries(v)) {
    if (!(k in current)) {
      if (k.endsWith('Set')) continue; // clientSecretSet and the like: read-only markers echoed back by clients
      throw invalid(`unknown settings field "${name}.${k}"`);
    }
    const was = (current as Record<string, unknown>)[k];
    if (SECRET_FIELDS.has(k)) {
      const s = text(fv, `${name}.${k}`, 4096);
      if (s) next[k] = s;
    } else if (k === 'groupGrants') {
      if (!Array.isArray(fv) || fv.length > 256) throw invalid(`${name}.groupGrants must be a list`);
      next[k] = fv.map((g, i) => grant(g, `${name}.groupGrants[${i}]`));
    } else if (Array.isArray(was)) next[k] = texts(fv, `${name}.${k}`);
    else if (typeof was === 'boolean') next[k] = flag(fv, `${name}.${k}`);
    else next[k] = text(fv, `${name}.${k}`);
  }
  return next as T;
}

/** Validates one of the account fields of a settings PUT; returns the changed part of the settings. */
export function normaliseAccountField(key: 'oidc' | 'ldap' | 'twoFactor' | 'localLogin', v: unknown, current: AccountSettings): Partial<AccountSettings> {
  switch (key) {
    case 'oidc':
      return { oidc: mergeSection<OidcSettings>(current.oidc, v, 'oidc') };
    case 'ldap':
      return { ldap: mergeSection<LdapSettings>(current.ldap, v, 'ldap') };
    case 'twoFactor':
      if (!isObj(v)) throw invalid('twoFactor must be an object');
      return { twoFactor: { required: v.required === undefined ? current.twoFactor.required : flag(v.required, 'twoFactor.required') } };
    case 'localLogin':
      return { localLogin: flag(v, 'localLogin') };
  }
}

/** The settings as any API answers them: secrets blanked, with a marker saying whether one is stored. */
export function withoutSecrets<T extends AccountSettings>(s: T): T {
  return {
    ...s,
    oidc: { ...s.oidc, clientSecret: '', clientSecretSet: !!s.oidc.clientSecret },
    ldap: { ...s.ldap, bindPassword: '', bindPasswordSet: !!s.ldap.bindPassword },
  };
}

/** The settings as `config export` writes them: the secret fields left out (a backup file is no place for them). */
export function exportableSettings<T extends AccountSettings>(s: T): T {
  const { clientSecret: _c, ...oidc } = s.oidc;
  const { bindPassword: _b, ...ldap } = s.ldap;
  return { ...s, oidc, ldap } as T;
}

/**
 * An imported settings document (`config import`) keeps the stored secrets wherever it has none (exports never
 * carry them), so a round trip does not sign everyone out of single sign-on or LDAP.
 */
export function keepStoredSecrets(doc: unknown, current: AccountSettings): unknown {
  if (!isObj(doc)) return doc;
  const out: Obj = { ...doc };
  for (const [section, field] of [['oidc', 'clientSecret'], ['ldap', 'bindPassword']] as const) {
    const stored = current[section][field as keyof (typeof current)[typeof section]] as unknown as string;
    if (!stored) continue;
    const given = isObj(out[section]) ? (out[section] as Obj) : out[section] === undefined ? {} : null;
    if (!given || (typeof given[field] === 'string' && given[field])) continue;
    out[section] = { ...given, [field]: stored };
  }
  return out;
}

