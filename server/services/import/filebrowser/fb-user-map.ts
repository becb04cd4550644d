import { PERMISSIONS, VIEW_MODES } from '../../../contract/user';
import { localeInfo, matchLocale } from '../../../contract/locales';
import type { FbPerm, FbRule, FbUser, FbUserDefaults } from './fb-dump';
import { translateRe2 } from './fb-regex';

/**
 * How a filebrowser user (reference `filebrowser-db.md` §3.5) becomes ours, one row per field: where it goes and the
 * quirk its releases have. Absent keys (records last saved by an older release) read as Go's zero value, then get
 * filebrowser's own read-side default, exactly as filebrowser itself would show them.
 *
 * | filebrowser      | since  | Filedeck               | how |
 * |------------------|--------|------------------------|-----|
 * | id               | 2.0.0  | (new id)               | ours are given by the database; shares follow the owner by name |
 * | username         | 2.0.0  | username               | as is; an existing name is a conflict (or --merge) |
 * | password         | 2.0.0  | password (hash)        | bcrypt `$2a$10$…` kept as is, so the old password works; anything else skips the user |
 * | scope            | 2.0.0  | scope                  | since 2.22 every scope is root + path: ".", "" and "/" are the root, "./users/x" is /users/x, an absolute "/srv/x" is /srv/x under the root (warned) |
 * | locale           | 2.0.0  | locale                 | filebrowser's codes are ours (pt-br, zh-cn, ua…); regional tags fall back to the language, unknown to en |
 * | lockPassword     | 2.0.0  | lockPassword           | as is (admins never locked, as ours) |
 * | viewMode         | 2.0.0  | viewMode               | list, mosaic, "mosaic gallery" (2.21); "" is list |
 * | singleClick      | 2.10.0 | singleClick            | absent → false |
 * | redirectAfterCopyMove | 2.54 | redirectAfterCopyMove | absent → false |
 * | perm.*           | 2.0.0  | perm.*                 | as is; share without download is not allowed here: share goes off |
 * | commands         | 2.0.0  | commands               | null → []; names with spaces are dropped (ours are single words) |
 * | sorting          | 2.0.0  | sorting                | by "" → name; unknown by → name |
 * | rules            | 2.0.0  | rules                  | path rules as is ("" → "/"); regex rules rewritten from RE2 (fb-regex.ts), untranslatable ones dropped and reported |
 * | hideDotfiles     | 2.10.0 | hideDotfiles           | absent → false |
 * | dateFormat       | 2.18.0 | dateFormat             | absent → false |
 * | aceEditorTheme   | 2.44.0 | aceEditorTheme         | absent → "" (cut at 64 characters) |
 * | (other keys)     |        | —                      | forks' extra fields are ignored |
 */
export const USER_FIELD_TABLE = [
  'id', 'username', 'password', 'scope', 'locale', 'lockPassword', 'viewMode', 'singleClick', 'redirectAfterCopyMove',
  'perm', 'commands', 'sorting', 'rules', 'hideDotfiles', 'dateFormat', 'aceEditorTheme',
] as const;

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;
const SORT_BY = ['name', 'size', 'modified'];

/** What a user becomes: fields for UsersService.prepare (the password a hash), or why it cannot be imported. */
export type MappedUser = { ok: true; data: Record<string, unknown>; notes: string[] } | { ok: false; why: string };

/** A filebrowser scope as root + path (the rule since 2.22); null when it climbs out (".."). */
export function mapScope(scope: unknown, notes: string[], savedBefore2_44 = false): string | null {
  const s = typeof scope === 'string' ? scope.trim() : '';
  const parts = s.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return null;
  // Before 2.22 an absolute scope named a real host path; filebrowser reads it as root + path since, and so do we.
  // A record without aceEditorTheme was last saved before 2.44, perhaps before 2.22: worth a warning.
  if (s.startsWith('/') && parts.length && savedBefore2_44)
    notes.push(`scope "${s}" was saved by an old filebrowser, which read it as a host path before 2.22; it is now ${'/' + parts.join('/')} under the files root, as filebrowser 2.22+ reads it`);
  return '/' + parts.join('/');
}

/** A filebrowser locale code to ours: the same codes, else the language of a regional tag, else English. */
export function mapLocale(locale: unknown, notes: string[]): string {
  const code = typeof locale === 'string' && locale ? locale : 'en';
  const hit = localeInfo(code) ?? matchLocale(code);
  if (hit) return hit.code;
  notes.push(`locale "${code}" is not available here: English instead`);
  return 'en';
}

/** Rules as ours: path rules with a path ("" matched everything), regex rules rewritten from RE2 or dropped. */
export function mapRules(rules: FbRule[] | null | undefined, notes: string[], where: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [i, r] of (rules ?? []).entries()) {
    if (!r || typeof r !== 'object') continue;
    if (r.regex) {
      const raw = r.regexp?.raw || r.path || '';
      const t = translateRe2(raw);
      if (!t.ok) {
        notes.push(`${where} rule ${i + 1} (regex "${raw}") dropped: ${t.why}`);
        continue;
      }
      if (t.changed) notes.push(`${where} rule ${i + 1}: regex "${raw}" rewritten as "${t.raw}"`);
      out.push({ allow: !!r.allow, regex: true, path: '', regexp: { raw: t.raw } });
    } else {
      const path = typeof r.path === 'string' && r.path.trim() ? r.path : '/';
      if (/[\0-\x1f\\]/.test(path) || path.split('/').some((s) => s === '..' || s === '.')) {
        notes.push(`${where} rule ${i + 1} (path "${path}") dropped: the path has . or .. segments or control characters`);
        continue;
      }
      out.push({ allow: !!r.allow, regex: false, path, regexp: null });
    }
  }
  return out;
}

/** Permissions as ours (share needs download here). */
export function mapPerm(perm: Partial<FbPerm> | undefined, notes: string[]): Record<string, boolean> {
  const out = Object.fromEntries(PERMISSIONS.map((k) => [k, !!perm?.[k]])) as Record<string, boolean>;
  if (out.share && !out.download && !out.admin) {
    out.share = false;
    notes.push('share turned off: sharing needs the download permission here');
  }
  return out;
}

/** The fields users and the new-user defaults share (reference §3.2 defaults, §3.5). */
export function mapUserFields(u: Partial<FbUser | FbUserDefaults>, notes: string[]): Record<string, unknown> {
  const viewMode = typeof u.viewMode === 'string' && (VIEW_MODES as readonly string[]).includes(u.viewMode) ? u.viewMode : 'list';
  if (u.viewMode && viewMode !== u.viewMode) notes.push(`view mode "${u.viewMode}" is list here`);
  const by = typeof u.sorting?.by === 'string' && SORT_BY.includes(u.sorting.by) ? u.sorting.by : 'name';
  const commands = (u.commands ?? []).filter((c) => typeof c === 'string' && c.trim() !== '');
  const kept = commands.filter((c) => !/\s|[\x00-\x1f]/.test(c.trim()));
  if (kept.length !== commands.length) notes.push(`commands with spaces dropped: ${commands.filter((c) => !kept.includes(c)).join(', ')}`);
  return {
    locale: mapLocale(u.locale, notes),
    viewMode,
    singleClick: !!u.singleClick,
    redirectAfterCopyMove: !!u.redirectAfterCopyMove,
    perm: mapPerm(u.perm, notes),
    commands: kept,
    sorting: { by, asc: !!u.sorting?.asc },
    hideDotfiles: !!u.hideDotfiles,
    dateFormat: !!u.dateFormat,
    aceEditorTheme: typeof u.aceEditorTheme === 'string' ? u.aceEditorTheme.slice(0, 64) : '',
  };
}

/** One filebrowser user as the data UsersService.prepare takes (with passwordIsHash). */
export function mapUser(u: FbUser): MappedUser {
  const notes: string[] = [];
  if (typeof u.username !== 'string' || !u.username.trim()) return { ok: false, why: 'no username' };
  if (typeof u.password !== 'string' || !BCRYPT.test(u.password))
    return { ok: false, why: 'the password is not a bcrypt hash (quick setup stores --password as given): set one with "filedeck users update"' };
  const scope = mapScope(u.scope, notes, !('aceEditorTheme' in u));
  if (scope === null) return { ok: false, why: `scope "${u.scope}" climbs out of the root` };
  const data = { ...mapUserFields(u, notes), username: u.username, password: u.password, scope, lockPassword: !!u.lockPassword, rules: mapRules(u.rules, notes, 'user') };
  return { ok: true, data, notes };
}
