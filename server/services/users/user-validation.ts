import { PERMISSIONS, VIEW_MODES, type Permissions, type User } from '../../contract/user';
import { invalid } from '../../core/errors';
import { hasUnsafeChars } from '../../core/terminal-safe';
import { normaliseRules } from '../rules/rules';
import { normaliseTrashOverride } from '../trash/trash-settings';
import { normaliseVersionsOverride } from '../versions/version-settings';
import { normaliseQuota } from '../quota/quota-format';
import { LOCALES, localeInfo } from '../../contract/locales';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function bool(v: unknown, name: string): boolean {
  if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`);
  return v;
}

/** Canonical scope: "/" or "/a/b"; "." and "" mean the root. Relative segments are refused. */
export function normaliseScope(v: unknown, name = 'scope'): string {
  if (typeof v !== 'string') throw invalid(`${name} must be text`);
  const s = v.trim();
  if (/[\x00-\x1f\x7f\\]/.test(s)) throw invalid(`${name} contains forbidden characters`);
  const parts = s.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw invalid(`${name} may not contain ..`);
  return '/' + parts.join('/');
}

/** Longest username, in characters; MAX_USERNAME_BYTES bounds its UTF-8 form (what anonymous requests are cut at). */
export const MAX_USERNAME_CHARS = 128;
export const MAX_USERNAME_BYTES = 512;

/**
 * A username as stored (creation, signup, proxy login, rename): trimmed, 1-128 characters, no slashes, and none of
 * the characters a terminal acts on (C0, DEL, C1, line separators, bidi controls: core/terminal-safe.ts), so a name
 * shown in the audit log, a CLI table or the web app reads as what it is.
 */
export function checkUsername(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw invalid('username must not be empty');
  const u = v.trim();
  if (u.length > MAX_USERNAME_CHARS || Buffer.byteLength(u) > MAX_USERNAME_BYTES) throw invalid(`username is too long (${MAX_USERNAME_CHARS} characters at most)`);
  if (/[/\\]/.test(u) || hasUnsafeChars(u)) throw invalid('username may not contain slashes, control characters or bidirectional controls');
  return u;
}

/**
 * Cleans a username into a folder name, as the reference does: drop "..", replace anything outside
 * [0-9A-Za-z@_-.] with "-", collapse dashes. "teamone/x" -> "teamone-x".
 */
export function cleanUsername(name: string): string {
  const c = name.trim().replaceAll('..', '').replace(/[^0-9A-Za-z@_\-.]/g, '-').replace(/-+/g, '-');
  if (c === '' || c === '-' || c === '.') throw invalid('username cannot be turned into a home folder name');
  return c;
}

function perms(v: unknown, name: string): Permissions {
  if (!isObj(v)) throw invalid(`${name} must be an object`);
  const out = {} as Permissions;
  for (const p of PERMISSIONS) out[p] = p in v ? bool(v[p], `${name}.${p}`) : false;
  for (const k of Object.keys(v)) if (!(PERMISSIONS as readonly string[]).includes(k)) throw invalid(`unknown permission "${k}"`);
  return out;
}

/**
 * Validates the user fields present in `data` (not username/password: the service handles those) and returns
 * them normalised. Unknown fields are ignored, as clients send whole user objects.
 */
export function normaliseUserFields(data: Obj, where = 'user', opts: { allowDotScope?: boolean } = {}): Partial<User> {
  const out: Partial<User> = {};
  for (const [k, v] of Object.entries(data)) {
    const name = `${where}.${k}`;
    switch (k) {
      case 'scope':
        out.scope = opts.allowDotScope && (v === '.' || v === '') ? '.' : normaliseScope(v, name);
        break;
      case 'locale': {
        // Stored as the reference's code whichever form arrives ('uk' and 'ua' both store 'ua'), so records stay
        // readable by the reference's client; the web app turns it into a BCP 47 tag for the document.
        const info = localeInfo(v);
        if (!info) throw invalid(`${name} must be one of ${LOCALES.join(', ')} (or their BCP 47 tags, e.g. uk, nb, pt-BR)`);
        out.locale = info.code;
        break;
      }
      case 'viewMode':
        if (!VIEW_MODES.includes(v as User['viewMode'])) throw invalid(`${name} must be list, mosaic or mosaic gallery`);
        out.viewMode = v as User['viewMode'];
        break;
      case 'lockPassword':
      case 'singleClick':
      case 'redirectAfterCopyMove':
      case 'hideDotfiles':
      case 'dateFormat':
      case 'webdav':
        out[k] = bool(v, name);
        break;
      case 'perm':
        out.perm = perms(v, name);
        break;
      case 'commands':
        if (v === null) out.commands = [];
        else if (!Array.isArray(v) || v.some((c) => typeof c !== 'string' || /\s|[\x00-\x1f]/.test(c.trim())))
          throw invalid(`${name} must be a list of command names without spaces`);
        else out.commands = (v as string[]).map((c) => c.trim()).filter(Boolean);
        break;
      case 'sorting': {
        if (!isObj(v)) throw invalid(`${name} must be an object`);
        const by = v.by ?? 'name';
        if (!['name', 'size', 'modified', ''].includes(by as string)) throw invalid(`${name}.by must be name, size or modified`);
        out.sorting = { by: (by || 'name') as User['sorting']['by'], asc: bool(v.asc ?? false, `${name}.asc`) };
        break;
      }
      case 'rules':
        out.rules = normaliseRules(v, name);
        break;
      case 'aceEditorTheme':
        if (typeof v !== 'string' || v.length > 64) throw invalid(`${name} must be short text`);
        out.aceEditorTheme = v;
        break;
      case 'theme':
        if (v !== '' && v !== 'light' && v !== 'dark') throw invalid(`${name} must be "", light or dark`);
        out.theme = v;
        break;
      case 'trash':
        out.trash = normaliseTrashOverride(v, name);
        break;
      case 'versions':
        out.versions = normaliseVersionsOverride(v, name);
        break;
      case 'quota':
        out.quota = normaliseQuota(v, name);
        break;
    }
  }
  // An admin holds every permission and may always change their password.
  if (out.perm?.admin) {
    for (const p of PERMISSIONS) out.perm[p] = true;
    out.lockPassword = false;
  }
  if (out.perm && out.perm.share && !out.perm.download) throw invalid('permission to share requires permission to download');
  return out;
}
