import type { Command } from 'commander';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseYaml, toYaml } from '../../server/core/yaml';
import { AppError, invalid } from '../../server/core/errors';
import type { Services } from '../../server/app';
import type { FilebrowserDump } from '../../server/services/import/filebrowser/fb-dump';
import { dumpFromExports } from '../../server/services/import/filebrowser/fb-exports';
import { fbServerOverrides } from '../../server/services/import/filebrowser/fb-server-config';
import { readFilebrowserDb } from '../../server/services/import/filebrowser/read-db';
import type { ImportOptions } from '../../server/services/import/filebrowser/filebrowser-import.service';
import { configFrom, fail, print, withServices, type GlobalOpts } from '../context';
import { isPostgresUrl } from '../../server/db/sql';
import { importJson, importReport } from './import-report';

interface ImportFlags {
  dryRun?: boolean;
  merge?: boolean;
  writeConfig?: string;
  fbConfig?: string;
}

/** A JSON, YAML or TOML document (filebrowser writes all three), parsed by its extension. */
function readDoc(file: string, what: string): unknown {
  if (!existsSync(file)) throw new AppError('NOT_FOUND', `${what} ${file} does not exist`);
  const text = readFileSync(file, 'utf8');
  try {
    if (/\.ya?ml$/i.test(file)) return parseYaml(text);
    if (/\.toml$/i.test(file)) return Bun.TOML.parse(text);
    return JSON.parse(text);
  } catch (e) {
    throw invalid(`${what} ${file} is not valid: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** filebrowser's config file as filebrowser finds it (--fb-config, else ./, $HOME/, /etc/filebrowser/), and FB_* variables. */
function serverOverrides(flags: ImportFlags): { values: Record<string, unknown>; from: string[] } | undefined {
  const names = ['json', 'toml', 'yaml', 'yml'].map((e) => `.filebrowser.${e}`);
  const file = flags.fbConfig ?? [process.cwd(), homedir(), '/etc/filebrowser'].flatMap((d) => names.map((n) => join(d, n))).find((p) => existsSync(p));
  const doc = file ? readDoc(file, 'filebrowser config file') : null;
  if (doc !== null && (typeof doc !== 'object' || Array.isArray(doc))) throw invalid(`filebrowser config file ${file} must be a mapping of key: value`);
  const got = fbServerOverrides(doc as Record<string, unknown> | null, process.env);
  if (!got.from.length) return undefined;
  return { values: got.values as Record<string, unknown>, from: got.from.map((f) => (f.includes('config file') ? f.replace('config file', file!) : f)) };
}

/**
 * Opens our database for the import. A dry run writes nothing: where the SQLite file does not exist yet, it plans
 * against an empty throw-away database instead of creating the real one.
 */
async function withTarget(o: GlobalOpts & ImportFlags, fn: (s: Services) => Promise<void>): Promise<void> {
  const db = configFrom(o).database;
  if (!o.dryRun || isPostgresUrl(db) || existsSync(db)) return withServices(o, fn, true);
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-import-dry-'));
  try {
    await withServices({ ...o, database: join(dir, 'dry-run.db') }, fn, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Plans, prints, and (unless a dry run) applies; --write-config writes the server values as a new filedeck.yaml. */
async function run(s: Services, o: GlobalOpts & ImportFlags, dump: FilebrowserDump, opts: ImportOptions): Promise<void> {
  const plan = await s.filebrowserImport.plan(dump, opts);
  let changed = false;
  if (!o.dryRun) changed = (await s.filebrowserImport.apply(plan)).changed;
  if (o.writeConfig && !o.dryRun) {
    if (existsSync(o.writeConfig)) throw new AppError('EXISTS', `${o.writeConfig} exists: it is not overwritten (the import itself is done)`);
    writeFileSync(o.writeConfig, `# filebrowser's server settings, written by "filedeck import" from ${plan.source}\n${toYaml(plan.serverConfig)}`, { flag: 'wx', mode: 0o644 });
  }
  print(o, importJson(plan, !!o.dryRun, changed), () => importReport(plan, !!o.dryRun, changed) + (o.writeConfig && !o.dryRun ? `\nServer settings written to ${o.writeConfig}.` : ''));
}

/**
 * `--config` is both Filedeck's global option (its config file) and, after `filebrowser-json`, filebrowser's config
 * export, as the issue names it. Commander gives both to the global option, so the words decide: a --config (or -c)
 * before the subcommand is ours, one after it is the export.
 */
export function configArgs(argv: string[]): { ours?: string; export?: string } {
  const at = argv.indexOf('filebrowser-json');
  const out: { ours?: string; export?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = /^--config=(.*)$/s.exec(a);
    const value = eq ? eq[1] : a === '--config' || a === '-c' ? argv[i + 1] : undefined;
    if (value === undefined) continue;
    if (at >= 0 && i > at) out.export = value;
    else out.ours = value;
    if (!eq) i++;
  }
  return out;
}

/** `filedeck import filebrowser <db>` and `filedeck import filebrowser-json --users <file> [--config <file>]`. */
export function registerImport(program: Command): void {
  const imp = program.command('import').description('bring accounts, settings and share links over from another file manager');

  imp.command('filebrowser').argument('<db>', "filebrowser 2.x database (filebrowser.db); stop filebrowser first: the file is only read")
    .option('--dry-run', 'print what would be imported, every conflict and every skipped item; write nothing')
    .option('--merge', 'replace the records of usernames that exist here (otherwise they are reported and left alone)')
    .option('--fb-config <file>', "filebrowser's config file (.filebrowser.json, .yaml or .toml) whose server values win over the database's")
    .option('--write-config <file>', "also write filebrowser's server settings (root, baseURL, address, port…) as a new filedeck.yaml")
    .description('import users (with their passwords), settings and share links (with their URLs) from filebrowser; give --root the folder filebrowser served')
    .action(async (db: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & ImportFlags;
      try {
        const dump = await readFilebrowserDb(db); // before opening ours: a bad file changes nothing anywhere
        const overrides = serverOverrides(o);
        await withTarget(o, async (s) => {
          await run(s, o, dump, { source: db, merge: !!o.merge, serverOverrides: overrides?.values });
          if (overrides && !o.json) process.stdout.write(`(server values also read from: ${overrides.from.join(', ')})\n`);
        });
      } catch (e) {
        fail(e);
      }
    });

  imp.command('filebrowser-json').requiredOption('--users <file>', 'what "filebrowser users export" wrote (.json or .yaml)')
    // --config here is filebrowser's export, as filebrowser names it; Filedeck's own config file goes before "import" (-c).
    .option('--config <file>', 'what "filebrowser config export" wrote (.json or .yaml); without it our settings stay as they are')
    .option('--dry-run', 'print what would be imported; write nothing')
    .option('--merge', 'replace the records of usernames that exist here')
    .option('--write-config <file>', "also write filebrowser's server settings as a new filedeck.yaml")
    .description("import users (with their passwords) and settings from filebrowser's JSON exports (they hold no share links)")
    .action(async (_o, cmd: Command) => {
      const own = cmd.opts() as ImportFlags & { users: string };
      const split = configArgs(process.argv);
      const o = { ...(cmd.parent!.parent!.opts() as GlobalOpts), ...own, config: split.ours };
      try {
        const users = readDoc(own.users, 'users export');
        const config = split.export ? readDoc(split.export, 'config export') : null;
        const { dump, settings } = dumpFromExports(users, config);
        await withTarget(o, (s) => run(s, o, dump, { source: [own.users, split.export].filter(Boolean).join(' + '), merge: !!o.merge, noSettings: !settings }));
      } catch (e) {
        fail(e);
      }
    });
}
