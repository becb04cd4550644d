import type { Sql } from './sql';

/**
 * Key/value storage of settings (JSON values) and of secrets (bytes never leave the server), plus the revision
 * counter that tells every connection and instance when settings changed.
 */
export class SettingsStore {
  constructor(private readonly db: Sql) {}

  get engine() {
    return this.db.engine;
  }

  async getAll(): Promise<Record<string, unknown>> {
    const rows = await this.db.all<{ key: string; value: string }>('SELECT key, value FROM settings');
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.db.get('SELECT 1 AS one FROM settings LIMIT 1'));
  }

  /** Writes the given keys in one transaction (other keys are left as they are) and moves the revision. */
  async putMany(values: Record<string, unknown>): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const [k, v] of Object.entries(values))
        await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', k, JSON.stringify(v));
      await tx.run("INSERT INTO revisions (name, n) VALUES ('settings', 1) ON CONFLICT (name) DO UPDATE SET n = revisions.n + 1");
    });
  }

  /** The database's change mark (sql.ts changeMark): equal marks mean no setting changed in between. */
  changeMark(): Promise<string | null> {
    return this.db.changeMark();
  }

  /** changeMark() when it can be had without waiting; undefined otherwise. */
  changeMarkNow(): string | undefined {
    return this.db.changeMarkNow();
  }

  /** How many times settings were written, by anyone (0 before the first write). */
  async revision(): Promise<number> {
    return Number((await this.db.get<{ n: number }>("SELECT n FROM revisions WHERE name = 'settings'"))?.n ?? 0);
  }

  async getSecret(name: string): Promise<Uint8Array | null> {
    const r = await this.db.get<{ value: Uint8Array }>('SELECT value FROM secrets WHERE name = ?', name);
    return r ? new Uint8Array(r.value) : null;
  }

  /** Stores a secret only if none exists yet, and returns the one stored (safe when two processes race). */
  async ensureSecret(name: string, make: () => Uint8Array): Promise<Uint8Array> {
    await this.db.run('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', name, make());
    return (await this.getSecret(name))!;
  }
}
