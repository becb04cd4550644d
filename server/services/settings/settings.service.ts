import { SETTINGS_PUT_FIELDS, type Settings } from '../../contract/settings';
import type { SettingsStore } from '../../db/settings.store';
import { defaultSettings } from './settings-defaults';
import { mergeSettings } from './settings-validation';

export const CLI_SETTINGS_FIELDS = [...SETTINGS_PUT_FIELDS, 'authMethod', 'authHeader'] as const;

/** Run-time product settings: read with defaults filled in, validated on every write. */
export class SettingsService {
  constructor(private readonly store: SettingsStore) {}

  /** The stored settings over the defaults (keys added by later versions get their default). */
  get(): Settings {
    const stored = this.store.getAll();
    const d = defaultSettings();
    const s = { ...d, ...stored } as Settings;
    s.branding = { ...d.branding, ...(stored.branding as object | undefined) };
    s.tus = { ...d.tus, ...(stored.tus as object | undefined) };
    s.commands = { ...d.commands, ...(stored.commands as object | undefined) };
    s.defaults = { ...d.defaults, ...(stored.defaults as object | undefined) };
    s.defaults.perm = { ...d.defaults.perm, ...s.defaults.perm };
    return s;
  }

  /** True when the database has never been initialised (first run). */
  isFresh(): boolean {
    return this.store.isEmpty();
  }

  /** Writes every setting (first run, config init, import). */
  init(patch: unknown = {}): Settings {
    const next = mergeSettings(defaultSettings(), patch, CLI_SETTINGS_FIELDS);
    this.store.putMany(next as unknown as Record<string, unknown>);
    return next;
  }

  /** Applies a partial update. `fields` limits what may change: HTTP callers cannot switch the auth method. */
  update(patch: unknown, fields: readonly string[] = SETTINGS_PUT_FIELDS): Settings {
    const next = mergeSettings(this.get(), patch, fields);
    this.store.putMany(next as unknown as Record<string, unknown>);
    return next;
  }

  /** The JWT signing key: 64 random bytes made once, stored apart from settings, never exported. */
  signingKey(): Uint8Array {
    return this.store.ensureSecret('jwt', () => crypto.getRandomValues(new Uint8Array(64)));
  }
}
