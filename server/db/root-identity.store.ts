import type { Sql } from './sql';

/** The files root as it was last served: which folder on which device, and the marker it holds. */
export interface RootIdentity {
  /** The configured root path (for messages; a root that moved keeps its marker). */
  root: string;
  /** `stat().dev` and `stat().ino` of the root folder, as text (device numbers exceed 2^31). */
  device: string;
  inode: string;
  /** The random id written in the root's marker file (services/setup/root-identity.ts). */
  marker: string;
  /** The root held files (besides our own names) at some start: an empty root without its marker is refused. */
  heldFiles: boolean;
  recordedAt: number;
}

type Row = Omit<RootIdentity, 'heldFiles'> & { heldFiles: number };
const SELECT = 'SELECT root, device, inode, marker, held_files AS "heldFiles", recorded_at AS "recordedAt" FROM root_identity WHERE id = 1';

/** SQL for the one root identity row (migration 14). */
export class RootIdentityStore {
  constructor(private readonly db: Sql) {}

  async get(): Promise<RootIdentity | null> {
    const r = await this.db.get<Row>(SELECT);
    return r ? { ...r, heldFiles: Number(r.heldFiles) === 1, recordedAt: Number(r.recordedAt) } : null;
  }

  /** Records the identity unless one is recorded already (two instances starting at once: the first one wins). */
  async insertIfAbsent(r: RootIdentity): Promise<void> {
    await this.db.run(
      'INSERT INTO root_identity (id, root, device, inode, marker, held_files, recorded_at) VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      r.root, r.device, r.inode, r.marker, r.heldFiles ? 1 : 0, r.recordedAt,
    );
  }

  /** Records (or replaces) the identity. */
  async put(r: RootIdentity): Promise<void> {
    await this.db.run(
      'INSERT INTO root_identity (id, root, device, inode, marker, held_files, recorded_at) VALUES (1, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET root = excluded.root, device = excluded.device, inode = excluded.inode, marker = excluded.marker, held_files = excluded.held_files, recorded_at = excluded.recorded_at',
      r.root, r.device, r.inode, r.marker, r.heldFiles ? 1 : 0, r.recordedAt,
    );
  }
}
