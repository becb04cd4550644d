import type { Sql } from './sql';

/**
 * The channel on which instances sharing one PostgreSQL database tell each other which paths they changed
 * (services/index/index-peers.ts). Nothing is stored: NOTIFY is delivered to every listening session of the
 * database at commit, and missed while a listener is away (the periodic sweep covers that).
 */
export class IndexNoticesStore {
  constructor(private readonly db: Sql) {}

  /** Whether the engine can carry notices at all (PostgreSQL; SQLite serves one instance). */
  get shared(): boolean {
    return typeof this.db.listen === 'function';
  }

  /**
   * The channel's name: channels are per database, so it carries the schema too (instances of one deployment share
   * both; test apps on one cluster, each with its own schema, must not hear each other).
   */
  async channel(): Promise<string> {
    const r = await this.db.get<{ id: string }>("select current_database() || '.' || current_schema() as id");
    const hash = new Bun.CryptoHasher('sha256').update(r?.id ?? '').digest('hex').slice(0, 16);
    return `filedeck_index_${hash}`;
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.db.run('select pg_notify(?, ?)', channel, payload);
  }

  listen(channel: string, onPayload: (payload: string) => void): Promise<{ unlisten(): Promise<void> }> {
    if (!this.db.listen) throw new Error('notices need PostgreSQL');
    return this.db.listen(channel, onPayload);
  }
}
