import type { Command } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseYaml, toYaml } from '../../server/core/yaml';
import { createServices } from '../../server/app';
import { redactUrl } from '../../server/db/database';
import { isPostgresUrl } from '../../server/db/sql';
import { AppError, invalid } from '../../server/core/errors';
import { formatDuration } from '../../server/core/duration';
import { silentLogger } from '../../server/core/log';
import { CLI_SETTINGS_FIELDS } from '../../server/services/settings/settings.service';
import { systemActor } from '../../server/services/actor';
import { exportableSettings, withoutSecrets } from '../../server/services/sso/sso-settings';
import { configFrom, fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

/** Turns "a.b.c" + text into a nested patch, typing the text after the current value at that path. */
export function settingPatch(current: unknown, key: string, text: string): Record<string, unknown> {
  const parts = key.split('.');
  if (!(CLI_SETTINGS_FIELDS as readonly string[]).includes(parts[0]!)) throw invalid(`unknown setting "${key}"`);
  let cur: unknown = current;
  for (const p of parts) {
    if (!cur || typeof cur !== 'object' || !(p in (cur as object))) throw invalid(`unknown setting "${key}"`);
    cur = (cur as Record<string, unknown>)[p];
  }
  let value: unknown;
  if (typeof cur === 'boolean') {
    if (!/^(true|false)$/.test(text)) throw invalid(`${key} must be true or false`);
    value = text === 'true';
  } else if (typeof cur === 'number') {
    if (!/^-?\d+$/.test(text)) throw invalid(`${key} must be a whole number`);
    value = Number(text);
  } else if (Array.isArray(cur)) {
    // A list of objects (oidc.groupGrants) is given as JSON; a list of names as words (or JSON).
    if (text.trim().startsWith('[')) {
      try {
        value = JSON.parse(text);
      } catch {
        throw invalid(`${key} must be given as a JSON list or as words`);
      }
    } else value = text.split(/[\s,]+/).filter(Boolean);
  }
  else if (cur && typeof cur === 'object') {
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid(`${key} must be given as JSON`);
    }
  } else value = text;
  const patch: Record<string, unknown> = {};
  let node = patch;
  parts.forEach((p, i) => {
    if (i === parts.length - 1) node[p] = value;
    else node = node[p] = {} as Record<string, unknown>;
  });
  return patch;
}

/** `<key> <value>` pairs, or `<key>=<value>` words (oidc.issuer=https://…), in any mix. */
function pairs(args: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const eq = /^([A-Za-z][\w.]*)=(.*)$/s.exec(args[i]!);
    if (eq) out.push([eq[1]!, eq[2]!]);
    else if (i + 1 < args.length) out.push([args[i]!, args[++i]!]);
    else throw invalid('give settings as pairs: <key> <value> ... or <key>=<value> ...');
  }
  return out;
}

function flatten(o: unknown, pre = ''): [string, string][] {
  if (o && typeof o === 'object' && !Array.isArray(o))
    return Object.entries(o).flatMap(([k, v]) => flatten(v, pre ? `${pre}.${k}` : k));
  return [[pre, Array.isArray(o) ? (o.every((x) => typeof x === 'string') ? o.join(' ') : JSON.stringify(o)) : String(o)]];
}

function readDoc(file: string): unknown {
  if (!existsSync(file)) throw new AppError('NOT_FOUND', `file ${file} does not exist`);
  const text = readFileSync(file, 'utf8');
  try {
    return /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw invalid(`${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(e as Error).message.split('\n')[0]}`);
  }
}

export function writeDoc(file: string, data: unknown): void {
  const text = /\.ya?ml$/i.test(file) ? toYaml(data) : JSON.stringify(data, null, 4) + '\n';
  writeFileSync(file, text, { mode: 0o600 });
}

/** `filedeck config init | set | cat | export | import`: run-time settings in the database. */
export function registerConfig(program: Command): void {
  const config = program.command('config').description('manage the settings stored in the database');

  config.command('init').argument('[pairs...]', 'optional <key> <value> pairs').description('create a new database with default settings')
    .action(async (args: string[], _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      try {
        const cfg = configFrom(opts);
        if (isPostgresUrl(cfg.database) || existsSync(cfg.database)) {
          const s = await createServices(cfg, silentLogger);
          const fresh = await s.settings.isFresh();
          await s.close();
          if (!fresh) throw new AppError('EXISTS', `database ${redactUrl(cfg.database)} is already initialised`);
        }
        await withServices(opts, async (s) => {
          let patch: Record<string, unknown> = {};
          for (const [k, v] of pairs(args)) patch = deepMerge(patch, settingPatch(s.settings.get(), k, v));
          const settings = await s.settings.init(patch);
          await s.settings.ensureSigningKey();
          print(opts, settings, () => `Initialised ${cfg.database}\n` + table(['setting', 'value'], flatten(settings)));
        }, true);
      } catch (e) {
        fail(e);
      }
    });

  config.command('set').argument('<pairs...>', '<key> <value> pairs, e.g. signup true branding.name "My files"').description('change settings')
    .action(async (args: string[], _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(opts, async (s) => {
        let patch: Record<string, unknown> = {};
        for (const [k, v] of pairs(args)) patch = deepMerge(patch, settingPatch(s.settings.get(), k, v));
        // Secrets (OIDC client secret, LDAP bind password) are written, never printed back.
        const settings = withoutSecrets(await s.settings.update(patch, CLI_SETTINGS_FIELDS));
        print(opts, settings, () => table(['setting', 'value'], flatten(settings)));
      }).catch(fail);
    });

  config.command('cat').description('print the boot configuration and the stored settings').action(async (_o, cmd: Command) => {
    const opts = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(opts, async (s) => {
      const boot = { ...s.config, tokenExpirationTime: formatDuration(s.config.tokenExpirationTime), commandTimeout: formatDuration(s.config.commandTimeout) };
      const settings = withoutSecrets(s.settings.get());
      print(opts, { boot, settings }, () => `Boot configuration (${s.config.configFile ?? 'no config file'}):\n${table(['key', 'value'], flatten(boot))}\n\nSettings (${s.config.database}):\n${table(['setting', 'value'], flatten(settings))}`);
    }).catch(fail);
  });

  config.command('export').argument('<file>', '.json, .yml or .yaml').description('write the settings to a file (the signing key and the OIDC/LDAP secrets are never exported)')
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(opts, async (s) => {
        writeDoc(file, { settings: exportableSettings(s.settings.get()) });
        print(opts, { file }, () => `Settings written to ${file}`);
      }).catch(fail);
    });

  config.command('import').argument('<file>', '.json, .yml or .yaml written by export').description('replace the settings from a file (keeps the signing key)')
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      try {
        const doc = readDoc(file) as { settings?: unknown } | null;
        if (!doc || typeof doc !== 'object' || !doc.settings) throw invalid(`${file} has no "settings" section`);
        await withServices(opts, async (s) => {
          const settings = await s.settings.import(systemActor, doc.settings, file);
          await s.settings.ensureSigningKey();
          print(opts, settings, () => `Settings imported from ${file}`);
        }, true);
      } catch (e) {
        fail(e);
      }
    });
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = prev && v && typeof prev === 'object' && typeof v === 'object' && !Array.isArray(v) ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}
