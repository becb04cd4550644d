import type { Sql } from './sql';

export interface ShareRow {
  hash: string;
  path: string;
  userId: number;
  expire: number;
  passwordHash: string;
  token: string;
  /** Real location of the shared item when it was shared (followed through moves); '' for links made before pinning. */
  target: string;
  /** identityOf() the shared item; a different item found at `target` ends the link. */
  targetId: string;
  /** Shares v2 (migration 23); absent in rows built before they existed, read as a `view` link without limits. */
  v2?: ShareSettingsRow;
}

/** The v2 settings and counters of a link (decision 0051); sizes in bytes, times unix seconds, 0 = none. */
export interface ShareSettingsRow {
  mode: string;
  slug: string;
  disabled: boolean;
  maxDownloads: number;
  maxFileSize: number;
  maxTotalSize: number;
  maxFiles: number;
  allowedTypes: string[];
  webhookUrl: string;
  webhookSecret: string;
  views: number;
  downloads: number;
  uploads: number;
  uploadedBytes: number;
  lastAccess: number;
}

export const NO_SETTINGS: ShareSettingsRow = {
  mode: 'view', slug: '', disabled: false, maxDownloads: 0, maxFileSize: 0, maxTotalSize: 0, maxFiles: 0, allowedTypes: [],
  webhookUrl: '', webhookSecret: '', views: 0, downloads: 0, uploads: 0, uploadedBytes: 0, lastAccess: 0,
};

const SELECT = `SELECT hash, path, user_id AS "userId", expire, password_hash AS "passwordHash", token, target, target_id AS "targetId",
  mode, slug, disabled, max_downloads AS "maxDownloads", max_file_size AS "maxFileSize", max_total_size AS "maxTotalSize",
  max_files AS "maxFiles", allowed_types AS "allowedTypes", webhook_url AS "webhookUrl", webhook_secret AS "webhookSecret",
  views, downloads, uploads, uploaded_bytes AS "uploadedBytes", last_access AS "lastAccess" FROM shares`;

type Raw = Omit<ShareRow, 'v2'> & Record<keyof ShareSettingsRow, unknown>;
const types = (t: unknown): string[] => {
  try {
    const v = JSON.parse(String(t));
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};
const fromRow = (r: Raw): ShareRow => ({
  hash: r.hash, path: r.path, userId: Number(r.userId), expire: Number(r.expire), passwordHash: r.passwordHash, token: r.token, target: r.target, targetId: r.targetId,
  v2: {
    mode: String(r.mode), slug: String(r.slug), disabled: Number(r.disabled) === 1, maxDownloads: Number(r.maxDownloads), maxFileSize: Number(r.maxFileSize),
    maxTotalSize: Number(r.maxTotalSize), maxFiles: Number(r.maxFiles), allowedTypes: types(r.allowedTypes), webhookUrl: String(r.webhookUrl),
    webhookSecret: String(r.webhookSecret), views: Number(r.views), downloads: Number(r.downloads), uploads: Number(r.uploads),
    uploadedBytes: Number(r.uploadedBytes), lastAccess: Number(r.lastAccess),
  },
});

/** SQL for shares. Callers must never send passwordHash or token to clients. */
export class SharesStore {
  constructor(private readonly db: Sql) {}

  /** Runs `fn` as one transaction: this store bound to it, and `tx` for the other stores of a link (log, notifications). */
  transaction<T>(fn: (shares: SharesStore, tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new SharesStore(tx), tx));
  }

  async all(): Promise<ShareRow[]> {
    return (await this.db.all<Raw>(`${SELECT} ORDER BY user_id, path`)).map(fromRow);
  }

  async byUser(userId: number): Promise<ShareRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE user_id = ? ORDER BY path`, userId)).map(fromRow);
  }

  /** True when any link exists (a root never recorded is then expected to hold files). */
  async any(): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM shares LIMIT 1'));
  }

  async byHash(hash: string): Promise<ShareRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE hash = ?`, hash);
    return r ? fromRow(r) : null;
  }

  async byPath(userId: number, path: string): Promise<ShareRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE user_id = ? AND path = ?`, userId, path)).map(fromRow);
  }

  async insert(s: ShareRow): Promise<void> {
    const v = s.v2 ?? NO_SETTINGS;
    await this.db.run(
      `INSERT INTO shares (hash, path, user_id, expire, password_hash, token, target, target_id, created_at, mode, slug, disabled, max_downloads,
        max_file_size, max_total_size, max_files, allowed_types, webhook_url, webhook_secret) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      s.hash, s.path, s.userId, s.expire, s.passwordHash, s.token, s.target, s.targetId, Date.now(), v.mode, v.slug, v.disabled ? 1 : 0, v.maxDownloads,
      v.maxFileSize, v.maxTotalSize, v.maxFiles, JSON.stringify(v.allowedTypes), v.webhookUrl, v.webhookSecret,
    );
  }

  /** A link by its slug (stored lower-case) or by a hash whose case-folded form is `name` (slug uniqueness). */
  async bySlug(slug: string): Promise<ShareRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE slug = ?`, slug);
    return r ? fromRow(r) : null;
  }

  /** Whether a slug would clash with a link's slug or hash, compared case-folded (other than `except`'s own). */
  async nameTaken(name: string, except: string): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM shares WHERE (slug = ?1 OR lower(hash) = ?1) AND hash <> ?2 LIMIT 1', name, except));
  }

  /** Stores a changed link in one statement: lifetime, password hash and token, and the v2 settings (not the counters). */
  async saveChange(s: ShareRow): Promise<void> {
    const v = s.v2 ?? NO_SETTINGS;
    await this.db.run(
      `UPDATE shares SET expire = ?, password_hash = ?, token = ?, mode = ?, slug = ?, disabled = ?, max_downloads = ?, max_file_size = ?,
        max_total_size = ?, max_files = ?, allowed_types = ?, webhook_url = ?, webhook_secret = ? WHERE hash = ?`,
      s.expire, s.passwordHash, s.token, v.mode, v.slug, v.disabled ? 1 : 0, v.maxDownloads, v.maxFileSize, v.maxTotalSize, v.maxFiles,
      JSON.stringify(v.allowedTypes), v.webhookUrl, v.webhookSecret, s.hash,
    );
  }

  /** A new hash for a link (regeneration): its slug is cleared, so no old URL reaches it. */
  async rehash(from: string, to: string): Promise<boolean> {
    return (await this.db.run("UPDATE shares SET hash = ?, slug = '' WHERE hash = ?", to, from)).changes > 0;
  }

  /** Counts a view (and the last access). */
  async viewed(hash: string, nowSec: number): Promise<void> {
    await this.db.run('UPDATE shares SET views = views + 1, last_access = ? WHERE hash = ?', nowSec, hash);
  }

  /** Counts a download unless the link's limit is reached (atomic): false when it was. */
  async downloaded(hash: string, nowSec: number): Promise<boolean> {
    return (await this.db.run('UPDATE shares SET downloads = downloads + 1, last_access = ? WHERE hash = ? AND (max_downloads = 0 OR downloads < max_downloads)', nowSec, hash)).changes > 0;
  }

  /**
   * Takes one file of `bytes` from what an upload link still accepts (atomic, so concurrent uploads cannot pass
   * the limits together): false when it would exceed `max_files` or `max_total_size`.
   */
  async takeUpload(hash: string, bytes: number, nowSec: number): Promise<boolean> {
    return (await this.db.run(
      `UPDATE shares SET uploads = uploads + 1, uploaded_bytes = uploaded_bytes + ?1, last_access = ?2 WHERE hash = ?3
        AND (max_files = 0 OR uploads < max_files) AND (max_total_size = 0 OR uploaded_bytes + ?1 <= max_total_size)`,
      bytes, nowSec, hash,
    )).changes > 0;
  }

  /** Gives back what takeUpload took, for a file that did not land after all. */
  async giveBackUpload(hash: string, bytes: number): Promise<void> {
    await this.db.run('UPDATE shares SET uploads = uploads - 1, uploaded_bytes = uploaded_bytes - ? WHERE hash = ? AND uploads > 0', bytes, hash);
  }

  /** Stores a changed lifetime, password hash and token. */
  async update(s: Pick<ShareRow, 'hash' | 'expire' | 'passwordHash' | 'token'>): Promise<boolean> {
    return (await this.db.run('UPDATE shares SET expire = ?, password_hash = ?, token = ? WHERE hash = ?', s.expire, s.passwordHash, s.token, s.hash)).changes > 0;
  }

  async delete(hash: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM shares WHERE hash = ?', hash)).changes > 0;
  }

  /** Pins a share made before pinning existed (or refreshes its displayed path). */
  async pin(hash: string, path: string, target: string, targetId: string): Promise<void> {
    await this.db.run('UPDATE shares SET path = ?, target = ?, target_id = ? WHERE hash = ?', path, target, targetId, hash);
  }

  /** Shares of one real location, whoever owns them. */
  async byTarget(target: string): Promise<ShareRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE target = ?`, target)).map(fromRow);
  }

  /** The item at `target` now holds new bytes under a new identity (a save or an override replaced the file). */
  async retarget(target: string, targetId: string): Promise<number> {
    return (await this.db.run('UPDATE shares SET target_id = ? WHERE target = ?', targetId, target)).changes;
  }

  /** Ends every share of a real location or beneath it, whoever owns it. */
  async deleteUnderTarget(target: string): Promise<number> {
    const base = target.replace(/\/+$/, '');
    return (await this.db.run('DELETE FROM shares WHERE target = ? OR substr(target, 1, ?) = ?', base, base.length + 1, base + '/')).changes;
  }

  /** Every share of a real location or beneath it follows a move of `from` to `to`, whoever owns it. */
  async moveTarget(from: string, to: string): Promise<number> {
    const f = from.replace(/\/+$/, '');
    const t = to.replace(/\/+$/, '');
    return (await this.db.run('UPDATE shares SET target = CAST(? AS TEXT) || substr(target, ?) WHERE target = ? OR substr(target, 1, ?) = ?', t, f.length + 1, f, f.length + 1, f + '/')).changes;
  }
}
