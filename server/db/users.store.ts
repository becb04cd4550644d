import type { Database } from 'bun:sqlite';
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
    updatedAt: r.updated_at,
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
    updated_at: now,
  };
}

const COLUMNS = `username, password, scope, locale, lock_password, view_mode, single_click, redirect_after_copy_move,
  perm, commands, sorting, rules, hide_dotfiles, date_format, ace_editor_theme, theme, updated_at`;
const VALUES = `$username, $password, $scope, $locale, $lock_password, $view_mode, $single_click, $redirect_after_copy_move,
  $perm, $commands, $sorting, $rules, $hide_dotfiles, $date_format, $ace_editor_theme, $theme, $updated_at`;

/** SQL for users; no rules here, only storage. */
export class UsersStore {
  constructor(private readonly db: Database) {}

  all(): StoredUser[] {
    return (this.db.query('SELECT * FROM users ORDER BY id').all() as Row[]).map(fromRow);
  }

  byId(id: number): StoredUser | null {
    const r = this.db.query('SELECT * FROM users WHERE id = ?').get(id) as Row | null;
    return r ? fromRow(r) : null;
  }

  /** Case-insensitive lookup (usernames are unique without regard to case). */
  byUsername(username: string): StoredUser | null {
    const r = this.db.query('SELECT * FROM users WHERE username = ?').get(username) as Row | null;
    return r ? fromRow(r) : null;
  }

  count(): number {
    return (this.db.query('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  }

  countAdmins(): number {
    return (this.db.query(`SELECT count(*) AS n FROM users WHERE json_extract(perm, '$.admin') = 1`).get() as { n: number }).n;
  }

  insert(u: Omit<User, 'id'>, id?: number): number {
    const now = Date.now();
    const p = toParams(u, now);
    if (id !== undefined) {
      this.db.query(`INSERT INTO users (id, ${COLUMNS}, created_at) VALUES ($id, ${VALUES}, $created_at)`).run({ ...p, id, created_at: now });
      return id;
    }
    const res = this.db.query(`INSERT INTO users (${COLUMNS}, created_at) VALUES (${VALUES}, $created_at)`).run({ ...p, created_at: now });
    return Number(res.lastInsertRowid);
  }

  update(u: User): void {
    const p = toParams(u, Date.now());
    const sets = COLUMNS.split(',').map((c) => `${c.trim()} = $${c.trim()}`).join(', ');
    this.db.query(`UPDATE users SET ${sets} WHERE id = $id`).run({ ...p, id: u.id });
  }

  delete(id: number): boolean {
    return this.db.query('DELETE FROM users WHERE id = ?').run(id).changes > 0;
  }

  /** Scopes of all users except one, for the case-insensitive home-folder collision check. */
  scopesExcept(id: number): string[] {
    return (this.db.query('SELECT scope FROM users WHERE id != ?').all(id) as { scope: string }[]).map((r) => r.scope);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}
