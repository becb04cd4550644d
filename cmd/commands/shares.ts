import type { Command } from 'commander';
import type { Config } from '../../server/core/config';
import { invalid } from '../../server/core/errors';
import { parseDuration } from '../../server/core/duration';
import type { Share } from '../../server/contract/share';
import { actorFor, systemActor } from '../../server/services/actor';
import { toVirtualPath } from '../../server/fs/virtual-path';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';
import { parseBytes } from '../../server/services/quota/quota-format';

const expiry = (e: number) => (e === 0 ? 'permanent' : new Date(e * 1000).toISOString());
const EXPIRES_HELP = 'lifetime: a duration (2d, 12h, 30m), a number of --unit, or 0 for permanent';

/**
 * `--expires`: a duration with a unit ("2d", "1h30m") in seconds, or a bare number counted in `unit` as the API
 * does (kept for scripts written before durations). Anything else is a clear error before anything changes.
 */
function expiresIn(text: string, unit: string | undefined): { expires: string; unit: string } {
  const t = text.trim();
  if (t === '' || /^\d+$/.test(t)) return { expires: t, unit: unit ?? 'hours' };
  const ms = parseDuration(t);
  if (ms === null || ms < 1000) throw invalid(`--expires "${text}" is not a duration: use e.g. 2d, 12h, 30m or 0`);
  return { expires: String(Math.round(ms / 1000)), unit: 'seconds' };
}

/** `--password -` reads the password from standard input (it then never shows in the process list or history). */
async function passwordFrom(value: string): Promise<string> {
  if (value !== '-') return value;
  const text = (await Bun.stdin.text()).replace(/\r?\n$/, '');
  if (!text) throw invalid('no password on standard input');
  return text;
}

/** The public link of a share on this server (`--url` when it is reached under another name). */
function linkOf(config: Readonly<Config>, hash: string, url?: string): string {
  const host = config.address.includes(':') ? `[${config.address}]` : config.address === '0.0.0.0' ? 'localhost' : config.address;
  const base = (url ?? `${config.cert ? 'https' : 'http'}://${host}:${config.port}${config.baseURL}`).replace(/\/+$/, '');
  return `${base}/share/${hash}`;
}

interface ShareUpdateOpts {
  expires?: string;
  password?: string | false;
  mode?: string;
  slug?: string | false;
  disable?: boolean;
  enable?: boolean;
  maxDownloads?: string;
  maxFileSize?: string;
  maxTotal?: string;
  maxFiles?: string;
  types?: string;
  webhook?: string;
  regenerate?: boolean;
}

const whole = (v: string, flag: string) => {
  if (!/^\d{1,15}$/.test(v.trim())) throw invalid(`${flag} must be a whole number`);
  return Number(v.trim());
};

/** The shares v2 part of `shares update` as a ShareChange (the service checks every field as for the API). */
function v2Change(o: ShareUpdateOpts): Record<string, unknown> {
  if (o.disable && o.enable) throw invalid('--disable and --enable together');
  const upload: Record<string, unknown> = {};
  if (o.maxFileSize !== undefined) upload.maxFileSize = parseBytes(o.maxFileSize, '--max-file-size');
  if (o.maxTotal !== undefined) upload.maxTotalSize = parseBytes(o.maxTotal, '--max-total');
  if (o.maxFiles !== undefined) upload.maxFiles = whole(o.maxFiles, '--max-files');
  if (o.types !== undefined) upload.allowedTypes = o.types.split(',').map((x) => x.trim()).filter(Boolean);
  return {
    mode: o.mode,
    slug: o.slug === false ? null : o.slug,
    disabled: o.disable ? true : o.enable ? false : undefined,
    maxDownloads: o.maxDownloads === undefined ? undefined : whole(o.maxDownloads, '--max-downloads'),
    upload: Object.keys(upload).length ? upload : undefined,
    webhookUrl: o.webhook,
  };
}

/** Links as a table; a listing adds each link's state (a link that serves nothing now is kept: see SharesService). */
const shareTable = (list: Share[]) =>
  list.some((x) => x.state)
    ? table(['Hash', 'Path', 'User', 'Expires', 'Password', 'State'], list.map((x) => [x.hash, x.path, x.username ?? x.userID, expiry(x.expire), x.hasPassword, x.state ?? '']))
    : table(['Hash', 'Path', 'User', 'Expires', 'Password'], list.map((x) => [x.hash, x.path, x.username ?? x.userID, expiry(x.expire), x.hasPassword]));

/** `filedeck shares ls | add | update | log | rm`: works offline on the database, with the same checks as the API. */
export function registerShares(program: Command): void {
  const shares = program.command('shares').description('manage shared links');
  shares.command('ls').option('--user <id|username>', 'only this user\'s shares').description('list shares').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string };
    await withServices(o, async (s) => {
      const list = await s.shares.list(systemActor, o.user ? (await s.users.find(o.user)).id : undefined);
      print(o, list, () => shareTable(list));
    }).catch(fail);
  });
  shares.command('add').argument('<path>', 'path inside the user\'s scope').requiredOption('--user <id|username>', 'the owner of the link')
    .option('--expires <when>', EXPIRES_HELP).option('--unit <unit>', 'seconds, minutes, hours or days, for a bare --expires number')
    .option('--password <password>', 'password visitors must give; "-" reads it from standard input')
    .option('--url <base>', 'public address of the server for the printed link (default: from the config)')
    .description('create a shared link as that user (their permissions and rules apply) and print it')
    .action(async (path: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user: string; expires?: string; unit?: string; password?: string; url?: string };
      await withServices(o, async (s) => {
        const life = expiresIn(o.expires ?? '', o.unit);
        const password = o.password === undefined ? undefined : await passwordFrom(o.password);
        const owner = await s.users.find(o.user);
        const actor = actorFor(owner, { root: s.config.root, globalRules: s.settings.get().rules, followExternalSymlinks: s.config.followExternalSymlinks });
        const share = await s.shares.create(actor, toVirtualPath(path).path, { ...life, password });
        const link = linkOf(s.config, share.hash, o.url);
        print(o, { ...share, username: owner.username, link }, () => `${link}\n${shareTable([{ ...share, username: owner.username }])}`);
      }).catch(fail);
    });
  shares.command('update').argument('<hash>', 'the link\'s hash or slug')
    .option('--expires <when>', 'new lifetime from now: a duration (2d, 12h, 30m), or 0 for permanent')
    .option('--password <password>', 'new password; "-" reads it from standard input').option('--no-password', 'remove the password')
    .option('--mode <mode>', 'view, upload (a file request: visitors send files, see nothing) or upload-view (folders only)')
    .option('--slug <slug>', 'a readable name: /share/<slug> (3-64 of a-z, 0-9, "-")').option('--no-slug', 'remove the slug')
    .option('--disable', 'serve nothing (the URL and settings are kept)').option('--enable', 'serve again')
    .option('--max-downloads <n>', 'downloads after which the link ends (0 = no limit)')
    .option('--max-file-size <size>', 'file requests: largest file (500M, 2G; 0 = no limit)')
    .option('--max-total <size>', 'file requests: most bytes over the link\'s life (0 = no limit)')
    .option('--max-files <n>', 'file requests: most files over the link\'s life (0 = no limit)')
    .option('--types <list>', 'file requests: accepted types, comma-separated extensions or MIME patterns (".pdf,image/*"; "" = any)')
    .option('--webhook <url>', 'POSTed a signed JSON summary when files arrive ("" removes it)')
    .option('--regenerate', 'a new random hash: the old URL and the slug stop working')
    .description('change a link: lifetime, password, mode, slug, limits, webhook; its URL stays unless --regenerate')
    .action(async (hash: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & ShareUpdateOpts;
      await withServices(o, async (s) => {
        let expires: number | undefined;
        if (o.expires !== undefined) {
          const t = o.expires.trim();
          const ms = t === '0' ? 0 : /^\d+$/.test(t) ? null : parseDuration(t);
          if (ms === null || (ms > 0 && ms < 1000)) throw invalid(`--expires "${o.expires}" is not a duration: use e.g. 2d, 12h, 30m or 0`);
          expires = Math.round(ms / 1000);
        }
        const password = o.password === false ? null : o.password === undefined ? undefined : await passwordFrom(o.password);
        const change = { expiresIn: expires, password, ...v2Change(o) };
        const changing = Object.values(change).some((x) => x !== undefined);
        if (!changing && !o.regenerate) throw invalid('nothing to change: give an option (see --help)');
        let share = changing ? await s.shares.update(systemActor, hash, change) : null;
        if (o.regenerate) share = await s.shares.regenerate(systemActor, share?.hash ?? hash);
        print(o, share, () => shareTable([share!]));
      }).catch(fail);
    });
  shares.command('log').argument('<hash>', 'the link\'s hash or slug').option('--limit <n>', 'at most this many lines, newest first (1-500)', '100')
    .description('a link\'s access log: time, what, address (anonymised unless settings.shares.logFullAddresses), client family')
    .action(async (hash: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { limit: string };
      await withServices(o, async (s) => {
        const lines = await s.shares.log(systemActor, hash, { limit: o.limit });
        print(o, lines, () => table(['Time', 'Kind', 'Path', 'Address', 'Client', 'Bytes'], lines.map((l) => [new Date(l.time).toISOString(), l.kind, l.path, l.address, l.agent, l.bytes ?? ''])));
      }).catch(fail);
    });
  shares.command('rm').argument('<hash>').description('delete a share').action(async (hash: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      await s.shares.remove(systemActor, hash);
      print(o, { deleted: hash }, () => `Share ${hash} deleted`);
    }).catch(fail);
  });
}
