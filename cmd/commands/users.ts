import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { parseYaml } from '../../server/core/yaml';
import { PERMISSIONS, type User, type UserWithUsage } from '../../server/contract/user';
import { AppError, invalid } from '../../server/core/errors';
import { systemActor } from '../../server/services/actor';
import { publicUser } from '../../server/services/users/users.service';
import { humanBytes, parseBytes } from '../../server/services/quota/quota-format';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';
import { writeDoc } from './config';
import { addIdentityCommands } from './identities';

const BOOL_FIELDS = ['lockPassword', 'singleClick', 'redirectAfterCopyMove', 'hideDotfiles', 'dateFormat'] as const;

function parseBool(v: unknown, name: string): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw invalid(`--${name} must be true or false`);
}

function addUserFlags(cmd: Command): Command {
  for (const p of PERMISSIONS) cmd.option(`--perm.${p} [bool]`, `permission ${p}`);
  for (const b of BOOL_FIELDS) cmd.option(`--${b} [bool]`, b);
  return cmd
    .option('--scope <path>', 'root folder of the user, relative to the server root')
    .option('--locale <code>', 'interface language, e.g. en, de, pt-br')
    .option('--viewMode <mode>', 'list, mosaic or "mosaic gallery"')
    .option('--commands <list>', 'comma-separated commands the user may run')
    .option('--sorting.by <field>', 'name, size or modified')
    .option('--sorting.asc [bool]', 'ascending sort')
    .option('--quota-bytes <size>', 'quota: bytes the scope may hold with the user\'s trash and versions (500M, 2G; 0 = no limit)')
    .option('--quota-files <n>', 'quota: files the scope may hold (0 = no limit)');
}

/** Only the flags actually given become fields (unlike the reference, nothing is reset by omission). */
function fieldsFromFlags(o: Record<string, unknown>, base?: User): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const perm = { ...(base?.perm ?? {}) } as Record<string, boolean>;
  let permGiven = false;
  for (const p of PERMISSIONS) if (o[`perm.${p}`] !== undefined) { perm[p] = parseBool(o[`perm.${p}`], `perm.${p}`); permGiven = true; }
  if (permGiven) data.perm = perm;
  for (const b of BOOL_FIELDS) if (o[b] !== undefined) data[b] = parseBool(o[b], b);
  if (o.scope !== undefined) data.scope = o.scope;
  if (o.locale !== undefined) data.locale = o.locale;
  if (o.viewMode !== undefined) data.viewMode = o.viewMode;
  if (o.commands !== undefined) data.commands = String(o.commands).split(',').map((c) => c.trim()).filter(Boolean);
  if (o.quotaBytes !== undefined || o.quotaFiles !== undefined) {
    // One measure given keeps the other as it is; both 0 removes the quota.
    const count = (v: string, flag: string) => {
      if (!/^\d+$/.test(v)) throw invalid(`${flag} must be a whole number (0 = no limit)`);
      return Number(v);
    };
    data.quota = {
      bytes: o.quotaBytes !== undefined ? parseBytes(String(o.quotaBytes), '--quota-bytes') : base?.quota?.bytes ?? 0,
      files: o.quotaFiles !== undefined ? count(String(o.quotaFiles), '--quota-files') : base?.quota?.files ?? 0,
    };
  }
  if (o['sorting.by'] !== undefined || o['sorting.asc'] !== undefined)
    data.sorting = { by: o['sorting.by'] ?? base?.sorting.by ?? 'name', asc: o['sorting.asc'] !== undefined ? parseBool(o['sorting.asc'], 'sorting.asc') : base?.sorting.asc ?? false };
  return data;
}

const permText = (u: User) => PERMISSIONS.filter((p) => u.perm[p]).join(',') || '-';
/** "2.0 GB, 100 files", or "-" without a quota. */
const quotaText = (u: User) => (u.quota ? [u.quota.bytes ? humanBytes(u.quota.bytes) : '', u.quota.files ? `${u.quota.files} files` : ''].filter(Boolean).join(', ') : '-');
/** "1.2 GB, 340 files" (trash and versions included in the bytes), "measuring" before the first measure. */
const usedText = (u: UserWithUsage) => (!u.usage ? '' : u.usage.checkedAt ? `${humanBytes(u.usage.bytes)}, ${u.usage.files} files` : 'measuring');
const userTable = (list: UserWithUsage[]) =>
  table(['ID', 'Username', 'Scope', 'Locale', 'Admin', 'Permissions', 'LockPassword', 'Quota', 'Used'], list.map((u) => [u.id, u.username, u.scope, u.locale, u.perm.admin, permText(u), u.lockPassword, quotaText(u), usedText(u)]));

function readList(file: string): unknown {
  if (!existsSync(file)) throw new AppError('NOT_FOUND', `file ${file} does not exist`);
  try {
    const text = readFileSync(file, 'utf8');
    return /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw invalid(`${file} is not valid: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** `filedeck users ...`: the same UsersService as the API, acting as the trusted system. */
export function registerUsers(program: Command): void {
  const users = program.command('users').description('manage users');
  addIdentityCommands(users);
  const opts = (cmd: Command) => cmd.optsWithGlobals() as GlobalOpts & Record<string, unknown>;

  addUserFlags(users.command('add').argument('<username>').argument('<password>').description('create a user'))
    .action(async (username: string, password: string, _o, cmd: Command) => {
      const o = opts(cmd);
      await withServices(o, async (s) => {
        const u = await s.users.create({ ...fieldsFromFlags(o), username, password, scope: o.scope ?? '' });
        print(o, u, () => userTable([u]));
      }).catch(fail);
    });

  users.command('ls').description('list users').action(async (_o, cmd: Command) => {
    const o = opts(cmd);
    await withServices(o, async (s) => {
      const list = (await s.users.list());
      print(o, list, () => userTable(list));
    }).catch(fail);
  });

  users.command('find').argument('<id|username>').description('show one user').action(async (who: string, _o, cmd: Command) => {
    const o = opts(cmd);
    await withServices(o, async (s) => {
      const u = publicUser((await s.users.find(who)));
      print(o, u, () => userTable([u]));
    }).catch(fail);
  });

  addUserFlags(users.command('update').argument('<id|username>').description('change a user; only the given flags change'))
    .option('-u, --username <name>', 'new username')
    .option('-p, --password <password>', 'new password')
    .action(async (who: string, _o, cmd: Command) => {
      const o = opts(cmd);
      await withServices(o, async (s) => {
        const cur = (await s.users.find(who));
        const data = fieldsFromFlags(o, publicUser(cur));
        if (o.username !== undefined) data.username = o.username;
        if (o.password !== undefined) data.password = o.password;
        const which = Object.keys(data);
        if (!which.length) throw invalid('nothing to change: give at least one flag');
        const u = await s.users.update(systemActor, cur.id, which, data);
        print(o, u, () => userTable([u]));
      }).catch(fail);
    });

  users.command('rm').argument('<id|username>').description('delete a user (not the last admin) with their sessions, links, jobs, uploads in progress and trash')
    .option('--trash-to <id|username>', 'hand their trash to this admin instead of deleting it for good')
    .action(async (who: string, _o, cmd: Command) => {
    const o = opts(cmd);
    await withServices(o, async (s) => {
      const u = (await s.users.find(who));
      const to = typeof o.trashTo === 'string' ? (await s.users.find(o.trashTo)) : null;
      await s.users.delete(systemActor, u.id, to ? { trashTo: to.id } : {});
      print(o, { deleted: u.id, ...(to ? { trashHandedTo: to.id } : {}) }, () => `User ${u.username} (id ${u.id}) deleted${to ? `; their trash now belongs to ${to.username}` : ', with their trash'}`);
    }).catch(fail);
  });

  users.command('export').argument('<file>', '.json, .yml or .yaml').description('write all users, with password hashes, to a file (mode 0600)')
    .action(async (file: string, _o, cmd: Command) => {
      const o = opts(cmd);
      await withServices(o, async (s) => {
        const list = (await s.users.exportAll()).map(({ updatedAt: _u, ...u }) => u);
        writeDoc(file, list);
        print(o, { file, count: list.length }, () => `${list.length} users written to ${file}`);
      }).catch(fail);
    });

  users.command('import').argument('<file>').option('--overwrite', 'replace users that already exist').option('--replace', 'delete every user first')
    .description('add users from an export file').action(async (file: string, _o, cmd: Command) => {
      const o = opts(cmd);
      await withServices(o, async (s) => {
        const n = await s.users.import(readList(file), { overwrite: !!o.overwrite, replace: !!o.replace, file });
        print(o, { imported: n }, () => `${n} users imported`);
      }).catch(fail);
    });
}
