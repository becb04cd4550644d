import type { Database } from 'bun:sqlite';

/** Key/value storage of settings (JSON values) and of secrets (bytes never leave the server). */
export class SettingsStore {
  private cache: { version: number; values: Record<string, unknown> } | null = null;

  constructor(private readonly db: Database) {}

  /**
   * All settings, read once and cached until the database changes. PRAGMA data_version moves when another
   * connection (the CLI) commits; our own writes clear the cache in putMany.
   */
  getAll(): Record<string, unknown> {
    const version = (this.db.query('PRAGMA data_version').get() as { data_version: number }).data_version;
    if (this.cache?.version === version) return structuredClone(this.cache.values);
    const rows = this.db.query('SELECT key, value FROM settings').all() as { key: string; value: string }[];
    const values = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
    this.cache = { version, values };
    return structuredClone(values);
  }

  isEmpty(): boolean {
    return !this.db.query('SELECT 1 FROM settings LIMIT 1').get();
  }

  /** Writes the given keys in one transaction; other keys are left as they are. */
  putMany(values: Record<string, unknown>): void {
    const stmt = this.db.query('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    this.db.transaction(() => {
      for (const [k, v] of Object.entries(values)) stmt.run(k, JSON.stringify(v));
    }).immediate();
    this.cache = null;
  }

  getSecret(name: string): Uint8Array | null {
    const r = this.db.query('SELECT value FROM secrets WHERE name = ?').get(name) as { value: Uint8Array } | null;
    return r ? new Uint8Array(r.value) : null;
  }

  /** Stores a secret only if none exists yet, and returns the one stored (safe when two processes race). */
  ensureSecret(name: string, make: () => Uint8Array): Uint8Array {
    this.db.query('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)').run(name, make());
    return this.getSecret(name)!;
  }
}
