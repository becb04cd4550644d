import type { Sql } from './sql';
import type { StoredUser, User } from '../contract/user';


interface Row {
  id: number;
  username: string;
  password: string;
  scope: string;
  locale: string;
  lock_password: number;
  view_mode: string;
  single_click: number;
  redirect_after_copy_move: number;
  perm: string;
  commands: string;
  sorting: string;
  rules: string;
  hide_dotfiles: number;
  date_format: number;
  ace_editor_theme: string;
  theme: string;
  trash: string;
  versions: string;
  quota: string;
  webdav: number;
  updated_at: number;
}

function fromRow(r: Row): StoredUser {
  return {
    id: r.id,
    username: r.username,
    password: r.password,
    scope: r.scope,
    locale: r.locale,
    lockPassword: !!r.lock_password,
    viewMode: r.view_mode as User['viewMode'],
    singleClick: !!r.single_click,
    redirectAfterCopyMove: !!r.redirect_after_copy_move,
    perm: JSON.parse(r.perm),
    commands: JSON.parse(r.commands),
    sorting: JSON.parse(r.sorting),
    rules: JSON.parse(r.rules),
    hideDotfiles: !!r.hide_dotfiles,
    dateFormat: !!r.date_format,
    aceEditorTheme: r.ace_editor_theme,
    theme: r.theme as User['theme'],
    trash: r.trash ? JSON.parse(r.trash) : null,
    versions: r.versions ? JSON.parse(r.versions) : null,
    quota: r.quota ? JSON.parse(r.quota) : null,
    webdav: r.webdav === undefined ? true : !!Number(r.webdav),
    updatedAt: Number(r.updated_at),
  };
}

function toParams(u: Omit<User, 'id'>, now: number) {
  return {
    username: u.username,
    password: u.password,
    scope: u.scope,
    locale: u.locale,
    lock_password: u.lockPassword ? 1 : 0,
    view_mode: u.viewMode,
    single_click: u.singleClick ? 1 : 0,
    redirect_after_copy_move: u.redirectAfterCopyMove ? 1 : 0,
    perm: JSON.stringify(u.perm),
    commands: JSON.stringify(u.commands),
    sorting: JSON.stringify(u.sorting),
    rules: JSON.stringify(u.rules),
    hide_dotfiles: u.hideDotfiles ? 1 : 0,
    date_format: u.dateFormat ? 1 : 0,
    ace_editor_theme: u.aceEditorTheme,
    theme: u.theme,
    trash: u.trash ? JSON.stringify(u.trash) : '',
    versions: u.versions ? JSON.stringify(u.versions) : '',
    quota: u.quota ? JSON.stringify(u.quota) : '',
    webdav: u.webdav === false ? 0 : 1,
    updated_at: now,
  };
}

const COLUMNS = [
  'username', 'password', 'scope', 'locale', 'lock_password', 'view_mode', 'single_click', 'redirect_after_copy_move',
  'perm', 'commands', 'sorting', 'rules', 'hide_dotfiles', 'date_format', 'ace_editor_theme', 'theme', 'trash', 'versions', 'quota', 'webdav', 'updated_at',
] as const;
const values = (p: ReturnType<typeof toParams>) => COLUMNS.map((c) => p[c]);

/** SQL for users; no rules here, only storage. */
export class UsersStore {
  constructor(private readonly db: Sql) {}

  /** The same store inside a transaction. */
  with(tx: Sql): UsersStore {
    return new UsersStore(tx);
  }

  /** Runs `fn` as one transaction, with the stores it is given bound to it. */
  transaction<T>(fn: (users: UsersStore, tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(this.with(tx), tx));
  }

  async all(): Promise<StoredUser[]> {
    return (await this.db.all<Row>('SELECT * FROM users ORDER BY id')).map(fromRow);
  }

  async byId(id: number): Promise<StoredUser | null> {
    const r = await this.db.get<Row>('SELECT * FROM users WHERE id = ?', id);
    return r ? fromRow(r) : null;
  }

  /**
   * The user of a live session, in one query (every authenticated request runs it): null when the session row is
   * gone or expired, or belongs to another user than `userId` (the token's claim); with the session's end. Sub-selects,
   * not a join: on SQLite the join form measured several times slower (row decoding of the joined columns).
   */
  async bySession(sid: string, userId: number, now: number): Promise<{ user: StoredUser; expiresAt: number } | null> {
    const r = await this.db.get<Row & { session_expires_at: number }>(
      'SELECT *, (SELECT expires_at FROM sessions WHERE id = ?1) AS session_expires_at FROM users WHERE id = (SELECT user_id FROM sessions WHERE id = ?1 AND user_id = ?2 AND expires_at >= ?3)',
      sid, userId, now,
    );
    return r ? { user: fromRow(r), expiresAt: Number(r.session_expires_at) } : null;
  }

  /** The database's change mark (sql.ts changeMark): equal marks mean no user or session row changed in between. */
  changeMark(): Promise<string | null> {
    return this.db.changeMark();
  }

  /** changeMark() when it can be had without waiting; undefined otherwise. */
  changeMarkNow(): string | undefined {
    return this.db.changeMarkNow();
  }

  /** Case-insensitive lookup (usernames are unique without regard to case). */
  async byUsername(username: string): Promise<StoredUser | null> {
    const r = await this.db.get<Row>('SELECT * FROM users WHERE lower(username) = lower(?)', username);
    return r ? fromRow(r) : null;
  }

  /** A user named by id (all digits) or by username. */
  byRef(ref: string): Promise<StoredUser | null> {
    return /^\d+$/.test(ref) ? this.byId(Number(ref)) : this.byUsername(ref);
  }

  async count(): Promise<number> {
    return Number((await this.db.get<{ n: number }>('SELECT count(*) AS n FROM users'))!.n);
  }

  async countAdmins(): Promise<number> {
    return (await this.all()).filter((u) => u.perm.admin).length;
  }

  async insert(u: Omit<User, 'id'>, id?: number): Promise<number> {
    const now = Date.now();
    const p = toParams(u, now);
    const marks = COLUMNS.map(() => '?').join(', ');
    if (id !== undefined) {
      await this.db.run(`INSERT INTO users (id, ${COLUMNS.join(', ')}, created_at) VALUES (?, ${marks}, ?)`, id, ...values(p), now);
      // An explicit id must not be handed out again by PostgreSQL's identity sequence.
      if (this.db.engine === 'postgres') await this.db.get("SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users))");
      return id;
    }
    const r = await this.db.get<{ id: number }>(`INSERT INTO users (${COLUMNS.join(', ')}, created_at) VALUES (${marks}, ?) RETURNING id`, ...values(p), now);
    return Number(r!.id);
  }

  async update(u: User): Promise<void> {
    const p = toParams(u, Date.now());
    await this.db.run(`UPDATE users SET ${COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, ...values(p), u.id);
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db.run('DELETE FROM users WHERE id = ?', id)).changes > 0;
  }

  /** Scopes of all users except one, for the home-folder overlap check. */
  async scopesExcept(id: number): Promise<string[]> {
    return (await this.db.all<{ scope: string }>('SELECT scope FROM users WHERE id != ?', id)).map((r) => r.scope);
  }
}
