import { SETTINGS_PUT_FIELDS, type Settings } from '../../contract/settings';
import type { SettingsStore } from '../../db/settings.store';
import { defaultSettings } from './settings-defaults';
import { mergeSettings } from './settings-validation';
import { systemActor, type Actor } from '../actor';
import type { AuditService } from '../audit/audit.service';
import { keepStoredSecrets } from '../sso/sso-settings';

/** Top-level settings whose value differs (names only: the audit log records what changed, not to what). */
const changedKeys = (a: Settings, b: Settings) => (Object.keys(b) as (keyof Settings)[]).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));

export const CLI_SETTINGS_FIELDS = [...SETTINGS_PUT_FIELDS, 'authMethod', 'authHeader'] as const;

/**
 * Run-time product settings: read with defaults filled in, validated on every write. Reads are synchronous from
 * a cache loaded at start (`load`); `fresh()` (called once per request) reloads it when the settings' revision
 * moved, so a change made by the CLI or another instance takes effect at once on SQLite and within half a
 * second on PostgreSQL.
 */
export class SettingsService {
  private cache: { revision: number; values: Record<string, unknown> } | null = null;
  private checkedAt = 0;
  /** The change mark read before the last revision check (sql.ts changeMark). */
  private mark: string | null = null;
  private key: Uint8Array | null = null;
  /** get().rules of the loaded revision: read on every request, so kept instead of cloned each time (reset by load()). */
  private rulesCache: Settings['rules'] | null = null;

  constructor(private readonly store: SettingsStore, private readonly audit?: AuditService) {}

  /** Reads the settings (and the signing key, when it exists) into the cache. */
  async load(): Promise<void> {
    const revision = await this.store.revision();
    this.cache = { revision, values: await this.store.getAll() };
    this.rulesCache = null;
    this.checkedAt = Date.now();
    this.key ??= await this.store.getSecret('jwt');
  }

  /**
   * Reloads when someone else wrote settings since the last load (checked at most every 500 ms on PostgreSQL).
   * Null when the cache is known to be current without waiting; else a promise of the check.
   */
  fresh(): Promise<void> | null {
    if (!this.cache) return this.load();
    if (this.store.engine === 'postgres' && Date.now() - this.checkedAt < 500) return null;
    // On SQLite the database's change mark says without waiting whether anything was committed since the last
    // check: then nothing is awaited at all (this runs before every request).
    const now = this.store.changeMarkNow();
    if (now !== undefined && now === this.mark) return null;
    return this.recheck(now);
  }

  /** Re-reads the revision (and the settings when it moved), under a mark read before it: a commit in between is seen next time. */
  private async recheck(known: string | undefined): Promise<void> {
    this.checkedAt = Date.now();
    const mark = known ?? (await this.store.changeMark());
    if (mark !== null && mark === this.mark) return;
    if ((await this.store.revision()) !== this.cache!.revision) await this.load();
    this.mark = mark;
  }

  /** The global rules of the loaded settings, shared and frozen: the per-request read (no copy of every setting). */
  rules(): Settings['rules'] {
    return (this.rulesCache ??= Object.freeze(this.get().rules) as Settings['rules']);
  }

  /** The stored settings over the defaults (keys added by later versions get their default). */
  get(): Settings {
    if (!this.cache) throw new Error('settings used before load()');
    const stored = structuredClone(this.cache.values);
    const d = defaultSettings();
    const s = { ...d, ...stored } as Settings;
    s.branding = { ...d.branding, ...(stored.branding as object | undefined) };
    s.tus = { ...d.tus, ...(stored.tus as object | undefined) };
    s.commands = { ...d.commands, ...(stored.commands as object | undefined) };
    s.defaults = { ...d.defaults, ...(stored.defaults as object | undefined) };
    s.defaults.perm = { ...d.defaults.perm, ...s.defaults.perm };
    s.trash = { ...d.trash, ...(stored.trash as object | undefined) };
    s.versions = { ...d.versions, ...(stored.versions as object | undefined) };
    s.extraction = { ...d.extraction, ...(stored.extraction as object | undefined) };
    return s;
  }

  /** True when the database has never been initialised (first run). */
  isFresh(): Promise<boolean> {
    return this.store.isEmpty();
  }

  /** Writes every setting (first run, config init, import). */
  async init(patch: unknown = {}): Promise<Settings> {
    const next = mergeSettings(defaultSettings(), patch, CLI_SETTINGS_FIELDS);
    await this.store.putMany(next as unknown as Record<string, unknown>);
    await this.load();
    return next;
  }

  /**
   * Applies a partial update. `fields` limits what may change: HTTP callers cannot switch the auth method. The
   * audit log records who (`actor`: the admin; the CLI when absent) changed which fields, never their values.
   */
  async update(patch: unknown, fields: readonly string[] = SETTINGS_PUT_FIELDS, actor: Actor = systemActor): Promise<Settings> {
    await this.fresh();
    const before = this.get();
    const next = mergeSettings(before, patch, fields);
    await this.store.putMany(next as unknown as Record<string, unknown>);
    await this.load();
    const changed = changedKeys(before, next);
    if (changed.length) await this.audit?.record(actor, 'settings.update', 'settings', { fields: changed });
    return next;
  }

  /** Replaces every setting from an export (`config import`), recorded in the audit log. */
  async import(actor: Actor, settings: unknown, file: string): Promise<Settings> {
    // Exports leave the OIDC and LDAP secrets out: the stored ones stay unless the file gives new ones.
    const next = await this.init(this.cache ? keepStoredSecrets(settings, this.get()) : settings);
    await this.audit?.record(actor, 'config.import', file);
    return next;
  }

  /** The JWT signing key: 64 random bytes made once (by whichever instance comes first), stored apart from settings, never exported. */
  async ensureSigningKey(): Promise<Uint8Array> {
    this.key = await this.store.ensureSecret('jwt', () => crypto.getRandomValues(new Uint8Array(64)));
    return this.key;
  }

  /** The signing key as loaded; throws before first-run setup made it. */
  signingKey(): Uint8Array {
    if (!this.key) throw new Error('no signing key yet: run first-time setup');
    return this.key;
  }
}
