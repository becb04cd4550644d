import { USER_FIELDS, type User, type UserField, type UserWithUsage } from '../../contract/user';
import type { QuotaUsage } from '../../contract/versions';
import { AppError, exists, forbidden, invalid, notFound } from '../../core/errors';
import type { SessionsStore } from '../../db/sessions.store';
import type { StoredUser } from '../../contract/user';
import type { UsersStore } from '../../db/users.store';
import { ScopedFs } from '../../fs/scoped-fs';
import type { Actor } from '../actor';
import { checkPassword, hashPassword, verifyPassword } from '../auth/password-policy';
import type { SettingsService } from '../settings/settings.service';
import { currentPasswordLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';
import { checkUsername, cleanUsername, normaliseScope, normaliseUserFields } from './user-validation';
import { systemActor } from '../actor';
import type { AuditService, AuditWho } from '../audit/audit.service';
import { removeBelongings, type Belongings, type TrashFate } from './user-removal';
import type { Sql } from '../../db/sql';

/** A user validated and completed by UsersService.prepare, not stored yet. */
export interface PreparedUser {
  user: Omit<User, 'id'>;
  /** Its scope is a home folder made for it (checked against other scopes). */
  wantsHome: boolean;
}

/** Fields whose change needs the caller's current password (json auth), and that non-admins may not touch. */
const SENSITIVE: UserField[] = ['username', 'password', 'scope', 'lockPassword', 'commands', 'perm', 'rules'];
const ADMIN_ONLY: UserField[] = ['username', 'scope', 'lockPassword', 'perm', 'commands', 'rules', 'trash', 'versions', 'quota', 'webdav'];
/** Changes that end the user's other sessions at once. */
const REVOKING: UserField[] = ['username', 'password', 'scope', 'perm', 'rules', 'commands'];

export interface UsersDeps {
  users: UsersStore;
  sessions: SessionsStore;
  settings: SettingsService;
  root: string;
  /** Shared attempt counters (see auth/limits.ts for the scheme). */
  limits: RateLimiter;
  /** Creations, changes (field names, never values of passwords), permission changes, deletions, imports. */
  audit?: AuditService;
}

/** Permissions switched on and off between two perm objects (for the audit log). */
function permDiff(a: Record<string, boolean>, b: Record<string, boolean>): { granted: string[]; revoked: string[] } {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return { granted: keys.filter((k) => !a[k] && b[k]), revoked: keys.filter((k) => a[k] && !b[k]) };
}

/** The user as the API shows it: no password hash, ever. */
export function publicUser(u: StoredUser): User {
  const { updatedAt: _, ...rest } = u;
  return { ...rest, password: '' };
}

/** Users: creation with home folders, which-field updates, deletion; the same rules for API and CLI. */
export class UsersService {
  /** Set by the composition root: ends the user's links that the new scope no longer reaches (shares). */
  onScopeChanged: (userId: number) => Promise<void> = async () => {};
  /** Set by the composition root: the jobs, uploads and trash a deleted user leaves (user-removal.ts). */
  belongings: Belongings | null = null;

  constructor(private readonly d: UsersDeps) {}

  async list(): Promise<UserWithUsage[]> {
    return Promise.all((await this.d.users.all()).map((u) => this.withUsage(u)));
  }

  /** Set by the composition root: what a user's scope holds against their quota (services/quota). */
  usageOf: ((u: StoredUser) => Promise<QuotaUsage>) | null = null;

  /** The public user with its read-only `usage` (admin lists and a user reading themselves). */
  private async withUsage(u: StoredUser): Promise<UserWithUsage> {
    const out: UserWithUsage = publicUser(u);
    if (this.usageOf) out.usage = await this.usageOf(u);
    return out;
  }

  /** A user by id; non-admins reading themselves get a blank scope, as in the reference. */
  async get(actor: Actor, id: number): Promise<UserWithUsage> {
    if (actor.user && !actor.can('admin') && actor.user.id !== id) throw forbidden();
    const u = await this.d.users.byId(id);
    if (!u) throw notFound();
    const out = await this.withUsage(u);
    if (actor.user && !actor.can('admin')) out.scope = '';
    return out;
  }

  async find(idOrName: string): Promise<StoredUser> {
    const u = await this.d.users.byRef(idOrName);
    if (!u) throw notFound(`no user "${idOrName}"`);
    return u;
  }

  /** Checks the caller's own password before sensitive changes (json auth only; the CLI is trusted). */
  async checkCurrentPassword(actor: Actor, current: unknown): Promise<void> {
    // A token is never a way to prove (or to guess) the account password: sensitive changes need a session.
    if (actor.limits) throw forbidden('not with an API token: sign in');
    if (!actor.user || this.d.settings.get().authMethod !== 'json') return;
    // The slot is taken BEFORE the comparison, so concurrent guesses with a stolen session are each counted.
    const slot = await this.d.limits.reserve(currentPasswordLimits(actor.user.id), 'too many wrong current passwords, try again later');
    if (typeof current !== 'string' || !(await verifyPassword(current, actor.user.password)))
      throw invalid('the current password is incorrect');
    await slot.succeeded();
  }

  /**
   * THE way to make a user: the API, the CLI, signup, proxy auth and imports (and later single sign-on) all come
   * here. The defaults template fills what `data` leaves out, scope included. Scope: an explicit one is used as
   * given; an empty one becomes the home folder <userHomeBasePath>/<sanitised name> when createUserDir is on (or
   * asked), else the template's scope. A home may neither contain nor lie inside another user's scope (the whole
   * root, the usual admin scope, excepted). The folder is made BEFORE the row, so a crash never leaves a user
   * without a folder; a failed insert removes a folder this call made. `passwordIsHash` is for first-run hashes.
   */
  async create(data: Record<string, unknown>, opts: { passwordIsHash?: boolean; createHome?: boolean; forceNonAdmin?: boolean; by?: Actor | AuditWho; via?: string } = {}): Promise<User> {
    const p = await this.prepare(data, opts);
    await this.creationChecks(this.d.users, p); // before making any folder
    const id = await this.withScopeFolders([p.user.scope], () => this.d.users.transaction((users) => this.insertPrepared(users, p)));
    const made = publicUser((await this.d.users.byId(id))!);
    await this.d.audit?.record(opts.by ?? systemActor, 'user.create', made.username, { id, scope: made.scope, perm: made.perm, ...(opts.via ? { via: opts.via } : {}) });
    return made;
  }

  /**
   * The record create() stores, validated and completed (defaults template, permissions, scope), written nowhere.
   * With create() and insertPrepared() this is the one creation path; an import prepares many users first, makes
   * their folders (withScopeFolders) and inserts them in its own transaction (insertPrepared).
   */
  async prepare(data: Record<string, unknown>, opts: { passwordIsHash?: boolean; createHome?: boolean; forceNonAdmin?: boolean } = {}): Promise<PreparedUser> {
    const settings = this.d.settings.get();
    const username = checkUsername(data.username);
    const password = opts.passwordIsHash ? String(data.password ?? '') : checkPassword(data.password, settings.minimumPasswordLength);
    if (opts.passwordIsHash && !/^\$2[aby]\$\d\d\$/.test(password)) throw invalid('password hash must be a bcrypt hash');
    const { scope: _tplScope, ...tpl } = settings.defaults;
    // A partial perm object is laid over the default permissions rather than zeroing the rest.
    const perm = data.perm && typeof data.perm === 'object' ? { ...tpl.perm, ...(data.perm as object) } : tpl.perm;
    const explicitScope = !(data.scope === undefined || data.scope === '' || data.scope === null);
    const fields = normaliseUserFields({ ...data, perm, scope: explicitScope ? data.scope : '/' }, 'user');
    const user: Omit<User, 'id'> = {
      ...tpl,
      rules: [],
      ...fields,
      username,
      password: opts.passwordIsHash ? password : await hashPassword(password),
      scope: '/',
    };
    if (opts.forceNonAdmin) {
      user.perm = { ...user.perm, admin: false, execute: false };
      user.commands = [];
    }
    const wantsHome = !explicitScope && (settings.createUserDir || !!opts.createHome);
    user.scope = explicitScope ? (fields.scope ?? '/') : this.templateScope(username, wantsHome);
    return { user, wantsHome };
  }

  /** The name is free and a home folder overlaps no other scope (asked again inside the inserting transaction). */
  private async creationChecks(users: UsersStore, p: PreparedUser): Promise<void> {
    if (await users.byUsername(p.user.username)) throw exists('username already taken');
    if (p.wantsHome) await this.refuseOverlappingHome(users, p.user.scope, 0);
  }

  /**
   * Inserts a prepared user through `users` (a store bound to the caller's transaction), checks first; the new id.
   * `id`: the id to give it (`users import` keeps an export's ids when free).
   */
  async insertPrepared(users: UsersStore, p: PreparedUser, id?: number): Promise<number> {
    await this.creationChecks(users, p); // again, atomically with the insert
    return users.insert(p.user, id);
  }

  /**
   * Replaces an existing user's record with a prepared one inside the caller's transaction (an import with
   * --merge, `users import --overwrite`): the id stays, and the username unless `name` is 'given' (an export's
   * record matched by id carries its name); the user's sessions end as after any permission or password change.
   */
  async replacePrepared(users: UsersStore, tx: Sql, id: number, p: PreparedUser, name: 'kept' | 'given' = 'kept'): Promise<void> {
    const current = await users.byId(id);
    if (!current) throw notFound(`user ${id} is gone`);
    await users.update({ ...current, ...p.user, username: name === 'given' ? p.user.username : current.username, id });
    await this.d.sessions.with(tx).deleteForUser(id);
  }

  /**
   * The scope an account gets when none is given: its home folder (<userHomeBasePath>/<sanitised name>) when
   * `home`, else the defaults template's. Directory logins re-apply it when no group gives a scope.
   */
  templateScope(username: string, home = this.d.settings.get().createUserDir): string {
    const settings = this.d.settings.get();
    if (home) return normaliseScope(`${settings.userHomeBasePath}/${cleanUsername(username)}`);
    const tplScope = settings.defaults.scope;
    return tplScope === '.' || !tplScope ? '/' : normaliseScope(tplScope);
  }

  /** A home folder must not be another user's scope, contain one, or lie inside one (the whole root excepted). */
  private async refuseOverlappingHome(users: UsersStore, scope: string, exceptId: number): Promise<void> {
    const s = scope.toLowerCase();
    for (const o of (await users.scopesExcept(exceptId)).map((x) => x.toLowerCase())) {
      if (o === '/' || o === '.' || o === '') continue;
      if (o === s) throw exists('another user already owns that home folder');
      if (o.startsWith(s + '/') || s.startsWith(o + '/')) throw exists("that home folder overlaps another user's scope");
    }
  }

  /**
   * Makes the scope folders, then runs `insert` (the rows). When the insert fails, the folders this call made are
   * removed again (only while empty), so a failure leaves neither; a crash in between leaves at most empty
   * folders, never a user without one.
   */
  async withScopeFolders<T>(scopes: string[], insert: () => Promise<T>): Promise<T> {
    const made: string[] = [];
    try {
      for (const scope of new Set(scopes)) made.push(...(await this.makeScope(scope)));
      return await insert();
    } catch (e) {
      // Deepest first: a folder made for a scope goes before the new parents made on the way to it.
      const fs = new ScopedFs(this.d.root);
      for (const folder of made.sort((a, b) => b.length - a.length)) await fs.removeEmptyFolder(folder).catch(() => {});
      throw e;
    }
  }

  /** Creates the scope folder when missing; true when this call made it. */
  private async ensureScope(scope: string): Promise<boolean> {
    return (await this.makeScope(scope)).length > 0;
  }

  /** Creates the scope folder when missing; the folders this call made (new parents included), outermost first. */
  private async makeScope(scope: string): Promise<string[]> {
    ScopedFs.ensureRoot(this.d.root);
    if (scope === '/') return [];
    const fs = new ScopedFs(this.d.root);
    if (await fs.exists(scope)) return [];
    const parts = scope.split('/').filter(Boolean);
    const made: string[] = [];
    for (let i = 1; i <= parts.length; i++) {
      const p = '/' + parts.slice(0, i).join('/');
      if (made.length || !(await fs.exists(p))) made.push(p);
    }
    await fs.mkdirp(scope);
    return made;
  }

  /**
   * Updates fields named in `which` (["all"] or [] = whole record, admin only). Password changes and
   * permission/scope/rules changes end the target's sessions, except the caller's current one.
   */
  async update(actor: Actor, id: number, which: unknown, data: unknown, opts: { by?: AuditWho } = {}): Promise<User> {
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalid('data must be a user object');
    const d = data as Record<string, unknown>;
    if (d.id !== undefined && d.id !== id) throw invalid('data.id does not match the user in the path');
    if (!Array.isArray(which) || which.some((w) => typeof w !== 'string')) throw invalid('which must be a list of field names');
    const isAdmin = actor.can('admin');
    if (actor.user && !isAdmin && actor.user.id !== id) throw forbidden();
    const all = which.length === 0 || (which.length === 1 && (which[0] as string).toLowerCase() === 'all');
    let fields: UserField[];
    if (all) {
      if (!isAdmin) throw forbidden();
      fields = [...USER_FIELDS];
    } else {
      fields = (which as string[]).map((w) => {
        const f = USER_FIELDS.find((k) => k.toLowerCase() === w.toLowerCase());
        if (!f) throw invalid(`invalid field: ${w}`);
        return f;
      });
      if (!isAdmin && fields.some((f) => ADMIN_ONLY.includes(f))) throw forbidden();
    }
    const current = await this.d.users.byId(id);
    if (!current) throw notFound();
    const settings = this.d.settings.get();
    const next: StoredUser = { ...current };
    const present = Object.fromEntries(fields.filter((f) => f in d && f !== 'username' && f !== 'password').map((f) => [f, d[f]]));
    Object.assign(next, normaliseUserFields(present, 'data'));
    if (fields.includes('username') && 'username' in d) next.username = checkUsername(d.username);
    let passwordChanged = false;
    if (fields.includes('password')) {
      const pw = d.password;
      if (all && (pw === '' || pw === undefined)) {
        // blank keeps the current password
      } else {
        // An API token (issue 34) never changes a password: a stolen token must not become the account.
        if (actor.limits) throw forbidden('a password cannot be changed with an API token');
        if (!isAdmin && current.lockPassword) throw forbidden('this user may not change the password');
        next.password = await hashPassword(checkPassword(pw, settings.minimumPasswordLength));
        passwordChanged = true;
      }
    }
    if (next.perm.admin) next.lockPassword = false;
    if (current.perm.admin && !next.perm.admin && (await this.d.users.countAdmins()) <= 1) throw forbidden('the last admin cannot lose admin rights');
    // The folder first: a crash after it leaves an empty folder, never a user whose scope does not exist.
    if (next.scope !== current.scope) await this.ensureScope(next.scope);
    await this.d.users.transaction(async (users, tx) => {
      if (next.username !== current.username) {
        const other = await users.byUsername(next.username);
        if (other && other.id !== id) throw exists('username already taken');
      }
      await users.update(next);
      const changed = REVOKING.some((f) => (f === 'password' ? passwordChanged : JSON.stringify(current[f]) !== JSON.stringify(next[f])));
      if (changed) await this.d.sessions.with(tx).deleteForUser(id, actor.user?.id === id ? actor.sessionId : undefined);
    });
    if (next.scope !== current.scope) await this.onScopeChanged(id);
    // Names of the fields that changed; a password is only ever named, never recorded.
    const changed = fields.filter((f) => (f === 'password' ? passwordChanged : JSON.stringify(current[f]) !== JSON.stringify(next[f])));
    const by = opts.by ?? actor;
    if (changed.length) await this.d.audit?.record(by, 'user.update', current.username, { id, fields: changed, ...(next.username !== current.username ? { newName: next.username } : {}) });
    if (changed.includes('perm')) await this.d.audit?.record(by, 'user.permissions', next.username, { id, ...permDiff(current.perm, next.perm) });
    return publicUser((await this.d.users.byId(id))!);
  }

  /**
   * Sets the fields a directory manages (perm, scope, rules: services/sso/group-grants.ts) at a directory login,
   * through the same update as an admin's edit: a change ends the user's sessions as any permission change does,
   * and is audited as made by `by` (the directory login). Nothing changed: no session ended, nothing audited.
   */
  async applyManaged(id: number, fields: { perm: User['perm']; scope: string; rules: User['rules']; quota?: number }, by: AuditWho): Promise<User> {
    // A group's quota (bytes; the largest of the user's groups) replaces the user's; without one (0) the quota an
    // admin set stays, so a directory without group quotas never clears it.
    const { quota, ...rest } = fields;
    if (!quota) return this.update(systemActor, id, ['perm', 'scope', 'rules'], rest, { by });
    return this.update(systemActor, id, ['perm', 'scope', 'rules', 'quota'], { ...rest, quota: { bytes: quota, files: 0 } }, { by });
  }

  /**
   * Deletes a user; the last admin cannot be deleted. Everything they own goes with them (user-removal.ts): sessions
   * and share links, jobs (ended), uploads in progress (with their temp files) and their trash, deleted for good
   * unless an admin asks for it to be handed to an admin (`trashTo`, a user id), who may then restore it.
   */
  async delete(actor: Actor, id: number, opts: { trashTo?: number } = {}): Promise<void> {
    if (actor.user && !actor.can('admin') && actor.user.id !== id) throw forbidden();
    if (actor.limits && actor.user?.id === id) throw forbidden('an account cannot be deleted with its own API token');
    const u = await this.d.users.byId(id);
    if (!u) throw notFound();
    if (u.perm.admin && (await this.d.users.countAdmins()) <= 1) throw new AppError('FORBIDDEN', 'the last admin cannot be deleted');
    let fate: TrashFate = 'remove';
    if (opts.trashTo !== undefined) {
      if (actor.user && !actor.can('admin')) throw forbidden('only admins choose where a deleted user\'s trash goes');
      const to = await this.d.users.byId(opts.trashTo);
      if (!to || !to.perm.admin || to.id === id) throw invalid('trashTo must be another user who is an admin');
      fate = { handTo: to.id };
    }
    const gone = this.belongings ? await removeBelongings(this.belongings, id, fate) : null;
    const name = await this.d.users.transaction(async (users) => {
      const u = await users.byId(id);
      if (!u) throw notFound();
      if (u.perm.admin && (await users.countAdmins()) <= 1) throw new AppError('FORBIDDEN', 'the last admin cannot be deleted');
      await users.delete(id);
      return u.username;
    });
    await this.d.audit?.record(actor, 'user.delete', name, { id, ...(gone ?? {}) });
  }

  /**
   * Replaces or merges users from an export; ids kept when free, hashes kept as they are. Through the one creation
   * path: each record is prepared (prepare: the defaults template, validation), then inserted (insertPrepared) or,
   * with --overwrite, laid over the existing user (replacePrepared) in one transaction; --replace first deletes
   * every user in that transaction. A record without a scope gets "/" (an export's scopes are explicit), and its
   * permissions are its own (missing ones false), as `users import` always did.
   */
  async import(list: unknown, opts: { overwrite?: boolean; replace?: boolean; by?: Actor; file?: string }): Promise<number> {
    if (!Array.isArray(list)) throw invalid('the file must hold a list of users');
    const prepared: { id: number | undefined; p: PreparedUser }[] = [];
    for (const [i, raw] of list.entries()) {
      if (!raw || typeof raw !== 'object') throw invalid(`user #${i + 1} is not an object`);
      const r = raw as Record<string, unknown>;
      const username = checkUsername(r.username);
      const hash = String(r.password ?? '');
      if (!/^\$2[aby]\$\d\d\$/.test(hash)) throw invalid(`user "${username}": password must be a bcrypt hash`);
      const fields = normaliseUserFields(r, `users[${i}]`); // checked here first, for messages naming the record
      const p = await this.prepare({ ...r, ...fields, scope: fields.scope ?? '/', username, password: hash }, { passwordIsHash: true });
      prepared.push({ id: typeof r.id === 'number' ? r.id : undefined, p });
    }
    if (!prepared.some(({ p }) => p.user.perm.admin) && opts.replace) throw invalid('the imported users must include an admin');
    // Folders before rows, as in create(); made by this call and the transaction failing: removed again.
    await this.withScopeFolders(prepared.map(({ p }) => p.user.scope), () =>
      this.d.users.transaction(async (users, tx) => {
        if (opts.replace) for (const u of await users.all()) await users.delete(u.id);
        for (const { id, p } of prepared) {
          const existing = (id !== undefined && (await users.byId(id))) || (await users.byUsername(p.user.username));
          if (existing) {
            if (!opts.overwrite) throw exists(`user "${p.user.username}" (id ${existing.id}) already exists; use --overwrite`);
            await this.replacePrepared(users, tx, existing.id, p, 'given');
          } else await this.insertPrepared(users, p, id);
        }
        if ((await users.countAdmins()) === 0) throw invalid('the import would leave no admin');
      }),
    );
    for (const { p } of prepared) await this.onScopeChanged((await this.d.users.byUsername(p.user.username))!.id);
    await this.d.audit?.record(opts.by ?? systemActor, 'users.import', opts.file ?? '', { count: prepared.length, users: prepared.map(({ p }) => p.user.username).slice(0, 100), overwrite: !!opts.overwrite, replace: !!opts.replace });
    return prepared.length;
  }

  /** Full records including password hashes, for `users export` only (never over HTTP). */
  exportAll(): Promise<StoredUser[]> {
    return this.d.users.all();
  }
}
