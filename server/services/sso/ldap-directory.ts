import type { Client, Entry } from 'ldapts';
import type { LdapSettings } from '../../contract/accounts';
import { AppError, forbidden } from '../../core/errors';
import { readPemFile } from '../../core/pem-file';

/** Every connect and operation gives up after this long: a dead server never holds a login forever. */
export const LDAP_TIMEOUT_MS = 5_000;

let lib: Promise<typeof import('ldapts')> | null = null;
/** ldapts, loaded at the first directory login: most servers have no directory, and every start paid for it (issue 39). */
const ldapts = () => (lib ??= import('ldapts'));

/** RFC 4515: a value put into a search filter, with the five special characters escaped. */
export function escapeFilter(v: string): string {
  return v.replace(/[\\*()\x00]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A person found in the directory whose password was right. */
export interface LdapPerson {
  dn: string;
  /** entryUUID when the server has it, else the DN (what identities are linked by). */
  subject: string;
  username: string;
  groups: string[];
}

/** The directory could not be asked (connection refused, timeout, TLS): a 503 for directory users only. */
export class DirectoryUnreachable extends AppError {
  constructor(cause: unknown) {
    super('UNAVAILABLE', 'the directory is unreachable', { cause });
  }
}

const first = (v: Entry[string] | undefined): string => (Array.isArray(v) ? String(v[0] ?? '') : v === undefined ? '' : String(v));
const all = (v: Entry[string] | undefined): string[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String));

/** The value of `attr` in the first RDN of a DN (cn=staff,ou=groups,… → staff), for memberOf values. */
function rdnValue(dn: string, attr: string): string {
  const m = /^\s*([^=,]+)=((?:\\.|[^,])*)/.exec(dn);
  return m && m[1]!.trim().toLowerCase() === attr.toLowerCase() ? m[2]!.replace(/\\(.)/g, '$1') : dn;
}

/**
 * One login against the directory (ldapts): connect (LDAPS, or StartTLS when asked, trusting `caFile`), search the
 * user with the service account, bind as the found DN with the password, read the groups. Null: no such user.
 */
export async function ldapAuthenticate(s: LdapSettings, username: string, password: string): Promise<LdapPerson | null> {
  const { Client, InvalidCredentialsError, ResultCodeError } = await ldapts();
  const ca = s.caFile ? [readPemFile(s.caFile)] : undefined;
  // TLS options only for ldaps:// (given to an ldap:// client, ldapts would speak TLS to the plain port).
  const ldaps = s.url.startsWith('ldaps:');
  const client = new Client({ url: s.url, timeout: LDAP_TIMEOUT_MS, connectTimeout: LDAP_TIMEOUT_MS, strictDN: false, tlsOptions: ldaps && ca ? { ca } : undefined });
  try {
    try {
      if (s.startTls && !ldaps) await client.startTLS(ca ? { ca } : {});
      if (s.bindDn) await client.bind(s.bindDn, s.bindPassword);
    } catch (e) {
      throw new DirectoryUnreachable(e); // a refused service bind is a configuration fault, not the user's
    }
    const filter = s.userFilter.replaceAll('{username}', escapeFilter(username));
    const attrs = [s.usernameAttribute, 'entryUUID', 'memberOf', 'pwdAccountLockedTime'];
    let found: Entry[];
    try {
      found = (await client.search(s.userBase, { scope: 'sub', filter, attributes: attrs, sizeLimit: 2 })).searchEntries;
    } catch (e) {
      if (e instanceof ResultCodeError && e.code === 4) return null; // size limit: the filter names several entries
      throw new DirectoryUnreachable(e);
    }
    if (found.length !== 1) return null; // none, or ambiguous: not a directory user
    const entry = found[0]!;
    // A locked account (ppolicy) is refused before its password is even tried.
    if (first(entry.pwdAccountLockedTime)) throw forbidden('this account is disabled in the directory');
    try {
      await client.bind(entry.dn, password);
    } catch (e) {
      if (e instanceof InvalidCredentialsError) throw forbidden();
      if (e instanceof ResultCodeError) throw forbidden('the directory refused this account');
      throw new DirectoryUnreachable(e);
    }
    // Groups are read with the service account again (the user may not be allowed to search them).
    if (s.bindDn) await client.bind(s.bindDn, s.bindPassword).catch((e) => Promise.reject(new DirectoryUnreachable(e)));
    const groups = s.groupBase ? await searchGroups(client, s, entry.dn, username) : all(entry.memberOf).map((dn) => rdnValue(dn, s.groupNameAttribute));
    return { dn: entry.dn, subject: first(entry.entryUUID) || entry.dn, username: first(entry[s.usernameAttribute]) || username, groups };
  } finally {
    await client.unbind().catch(() => {});
  }
}

async function searchGroups(client: Client, s: LdapSettings, dn: string, username: string): Promise<string[]> {
  const filter = s.groupFilter.replaceAll('{dn}', escapeFilter(dn)).replaceAll('{username}', escapeFilter(username));
  try {
    const { searchEntries } = await client.search(s.groupBase, { scope: 'sub', filter, attributes: [s.groupNameAttribute], sizeLimit: 1000 });
    return searchEntries.map((e) => first(e[s.groupNameAttribute])).filter(Boolean);
  } catch (e) {
    throw new DirectoryUnreachable(e);
  }
}

/** The subject a directory entry is linked by (its entryUUID, else its DN), read with the service account. */
export async function ldapSubjectOf(s: LdapSettings, dn: string): Promise<string> {
  const { Client, ResultCodeError } = await ldapts();
  const ldaps = s.url.startsWith('ldaps:');
  const ca = s.caFile ? [readPemFile(s.caFile)] : undefined;
  const client = new Client({ url: s.url, timeout: LDAP_TIMEOUT_MS, connectTimeout: LDAP_TIMEOUT_MS, strictDN: false, tlsOptions: ldaps && ca ? { ca } : undefined });
  try {
    let entries: Entry[];
    try {
      if (s.startTls && !ldaps) await client.startTLS(ca ? { ca } : {});
      if (s.bindDn) await client.bind(s.bindDn, s.bindPassword);
      entries = (await client.search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['entryUUID'] })).searchEntries;
    } catch (e) {
      if (e instanceof ResultCodeError && e.code === 32) throw new AppError('NOT_FOUND', `no entry "${dn}" in the directory`);
      throw new DirectoryUnreachable(e);
    }
    if (!entries.length) throw new AppError('NOT_FOUND', `no entry "${dn}" in the directory`);
    return first(entries[0]!.entryUUID) || entries[0]!.dn;
  } finally {
    await client.unbind().catch(() => {});
  }
}
