import { AUDIT_RETENTION_DAYS_RANGE } from '../../contract/audit';
import { HOOK_NAMES, type Settings } from '../../contract/settings';
import { invalid } from '../../core/errors';
import { normaliseExtractionLimits } from '../archive/extract-policy';
import { normaliseRules } from '../rules/rules';
import { normaliseTrash } from '../trash/trash-settings';
import { normaliseVersions } from '../versions/version-settings';
import { normaliseUserFields } from '../users/user-validation';
import { defaultSettings } from './settings-defaults';
import { normaliseAccountField } from '../sso/sso-settings';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function bool(v: unknown, name: string): boolean {
  if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`);
  return v;
}

function int(v: unknown, name: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw invalid(`${name} must be a whole number from ${min} to ${max}`);
  return v;
}

function str(v: unknown, name: string, max = 4096): string {
  if (typeof v !== 'string' || v.length > max) throw invalid(`${name} must be text of at most ${max} characters`);
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(v)) throw invalid(`${name} contains control characters`);
  return v;
}

function strList(v: unknown, name: string): string[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw invalid(`${name} must be a list of text`);
  return v.map((x, i) => str(x, `${name}[${i}]`)).map((s) => s.trim()).filter(Boolean);
}

/**
 * Merges a partial settings object over the current one, validating every given field. Unknown top-level
 * fields are refused so that a typo never silently does nothing.
 */
export function mergeSettings(current: Settings, patch: unknown, allowed: readonly string[]): Settings {
  if (!isObj(patch)) throw invalid('settings must be a JSON object');
  const next: Settings = structuredClone(current);
  for (const [k, v] of Object.entries(patch)) {
    if (!allowed.includes(k)) {
      if (k in defaultSettings()) continue; // known but not editable here (authMethod over HTTP): ignored as in the reference
      throw invalid(`unknown settings field "${k}"`);
    }
    switch (k) {
      case 'signup':
      case 'createUserDir':
      case 'quotaPrunesTrash':
        next[k] = bool(v, k);
        break;
      case 'userHomeBasePath': {
        const s = str(v, k, 1024).trim() || '/users';
        if (s.split('/').some((p) => p === '..' || p === '.') || s.includes('\\')) throw invalid('userHomeBasePath may not contain . or ..');
        next.userHomeBasePath = '/' + s.split('/').filter(Boolean).join('/');
        break;
      }
      case 'auditRetentionDays':
        next.auditRetentionDays = int(v, k, AUDIT_RETENTION_DAYS_RANGE.min, AUDIT_RETENTION_DAYS_RANGE.max);
        break;
      case 'minimumPasswordLength':
        next.minimumPasswordLength = v === 0 ? 12 : int(v, k, 1, 128);
        break;
      case 'authMethod':
        if (v !== 'json' && v !== 'noauth' && v !== 'proxy') throw invalid('authMethod must be json, noauth or proxy');
        next.authMethod = v;
        break;
      case 'authHeader': {
        const h = str(v, k, 256).trim();
        if (!/^[A-Za-z0-9-]+$/.test(h)) throw invalid('authHeader must be an HTTP header name');
        next.authHeader = h;
        break;
      }
      case 'rules':
        next.rules = normaliseRules(v, 'rules');
        break;
      case 'branding': {
        if (!isObj(v)) throw invalid('branding must be an object');
        const b = { ...next.branding };
        for (const [bk, bv] of Object.entries(v)) {
          if (bk === 'disableExternal' || bk === 'disableUsedPercentage') b[bk] = bool(bv, `branding.${bk}`);
          else if (bk === 'name' || bk === 'color') b[bk] = str(bv, `branding.${bk}`, 256);
          else if (bk === 'files') {
            const f = str(bv, 'branding.files', 1024).trim();
            if (f && !f.startsWith('/')) throw invalid('branding.files must be an absolute folder path');
            b.files = f;
          } else if (bk === 'theme') {
            if (bv !== '' && bv !== 'light' && bv !== 'dark') throw invalid('branding.theme must be "", light or dark');
            b.theme = bv;
          } else throw invalid(`unknown settings field "branding.${bk}"`);
        }
        next.branding = b;
        break;
      }
      case 'tus': {
        if (!isObj(v)) throw invalid('tus must be an object');
        const t = { ...next.tus };
        for (const [tk, tv] of Object.entries(v)) {
          if (tk === 'chunkSize') t.chunkSize = int(tv, 'tus.chunkSize', 1024 * 1024, 1024 * 1024 * 1024);
          else if (tk === 'retryCount') t.retryCount = int(tv, 'tus.retryCount', 0, 100);
          else throw invalid(`unknown settings field "tus.${tk}"`);
        }
        next.tus = t;
        break;
      }
      case 'shell':
        next.shell = strList(v, 'shell');
        break;
      case 'commands': {
        if (!isObj(v)) throw invalid('commands must be an object of event: [command lines]');
        const c = { ...next.commands };
        for (const [ck, cv] of Object.entries(v)) {
          if (!(HOOK_NAMES as string[]).includes(ck)) throw invalid(`unknown command event "${ck}"`);
          c[ck as keyof typeof c] = strList(cv, `commands.${ck}`);
        }
        next.commands = c;
        break;
      }
      case 'oidc':
      case 'ldap':
      case 'twoFactor':
      case 'localLogin':
        Object.assign(next, normaliseAccountField(k, v, next));
        break;
      case 'extraction':
        next.extraction = normaliseExtractionLimits(v, next.extraction);
        break;
      case 'trash':
        next.trash = { ...next.trash, ...normaliseTrash(v, 'trash') };
        break;
      case 'versions':
        next.versions = { ...next.versions, ...normaliseVersions(v, 'versions') };
        break;
      case 'shares': {
        if (!isObj(v)) throw invalid('shares must be an object');
        const sh = { ...next.shares };
        for (const [sk, sv] of Object.entries(v)) {
          if (sk === 'logFullAddresses' || sk === 'webhookPrivateHosts') sh[sk] = bool(sv, `shares.${sk}`);
          else throw invalid(`unknown settings field "shares.${sk}"`);
        }
        next.shares = sh;
        break;
      }
      case 'webdav': {
        if (!isObj(v)) throw invalid('webdav must be an object');
        const w = { ...next.webdav };
        for (const [f, x] of Object.entries(v)) {
          if (f === 'enabled' || f === 'allowPasswords') w[f] = bool(x, `webdav.${f}`);
          else if (f === 'macMetadata') {
            if (x !== 'ignore' && x !== 'keep') throw invalid('webdav.macMetadata must be ignore or keep');
            w.macMetadata = x;
          } else throw invalid(`unknown settings field "webdav.${f}"`);
        }
        next.webdav = w;
        break;
      }
      case 'defaults': {
        if (!isObj(v)) throw invalid('defaults must be an object');
        const { username: _u, password: _p, id: _i, rules: _r, ...rest } = v;
        const merged = {
          ...next.defaults,
          ...rest,
          perm: isObj(rest.perm) ? { ...next.defaults.perm, ...rest.perm } : next.defaults.perm,
          sorting: isObj(rest.sorting) ? { ...next.defaults.sorting, ...rest.sorting } : next.defaults.sorting,
        };
        next.defaults = { ...next.defaults, ...normaliseUserFields(merged, 'defaults', { allowDotScope: true }) };
        break;
      }
    }
  }
  return next;
}
