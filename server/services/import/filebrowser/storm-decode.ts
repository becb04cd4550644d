import { invalid } from '../../../core/errors';
import type { BoltEntry, BoltTree, BucketRef } from '../bolt/bolt-tree';
import type { FbConfig, FbShareEntry, FbUserEntry, FilebrowserDump } from './fb-dump';

/**
 * The storm layer over a bbolt tree, as filebrowser 2 uses it (reference §2–3): one top-level bucket per record
 * type (`User`, `Link`), the key/value bucket `config`, and `__storm_db`; in each, a `__storm_metadata` bucket naming
 * the codec (only `json` is filebrowser's) and auto-increment counters. Records are the plain entries of a bucket;
 * its nested buckets are storm's indexes, which an import never needs, so their pages are not even read.
 */

const TEXT = new TextDecoder();
const FILEBROWSER_BUCKETS = ['config', 'User', 'Link'];
const META = '__storm_metadata';

export async function decodeStorm(tree: BoltTree): Promise<FilebrowserDump> {
  const top = new Map<string, BoltEntry>();
  await tree.forEach(tree.root(), (e) => {
    if (e.bucket) top.set(TEXT.decode(e.key), e);
  });
  if (!FILEBROWSER_BUCKETS.some((b) => top.has(b))) {
    const names = [...top.keys()].slice(0, 10).map((n) => JSON.stringify(n));
    throw invalid(`no filebrowser buckets: this bbolt file is not a filebrowser database (its buckets: ${names.join(', ') || 'none'})`);
  }
  const codecs = new Set<string>();
  const config = await records(tree, top, 'config', codecs);
  const users = await records(tree, top, 'User', codecs);
  const links = await records(tree, top, 'Link', codecs);
  const stormDb = await records(tree, top, '__storm_db', codecs);

  refuseVersion1(config.values, users.values);
  for (const codec of codecs) if (codec !== 'json') throw invalid(`storm codec "${codec}": filebrowser writes only json, so this is not a filebrowser database`);

  const userEntries: FbUserEntry[] = users.values.map(([key, raw]) => {
    const value = record(raw, `user ${hex(key)}`);
    return { keyHex: hex(key), value: value as FbUserEntry['value'] };
  });
  const shareEntries: FbShareEntry[] = links.values.map(([key, raw]) => {
    const value = record(raw, `share ${TEXT.decode(key)}`);
    return { keyHex: hex(key), key: TEXT.decode(key), value: value as FbShareEntry['value'] };
  });
  // bbolt keeps keys in byte order and hex preserves it; sorting again costs little and holds even for a bad file.
  userEntries.sort((a, b) => compare(a.keyHex, b.keyHex));
  shareEntries.sort((a, b) => compare(a.keyHex, b.keyHex));

  const stormVersion = stormDb.values.find(([k]) => TEXT.decode(k) === 'version');
  return {
    config: configOf(config.values),
    users: userEntries,
    shares: shareEntries,
    storm: { '__storm_db/version': stormVersion ? String(json(stormVersion[1], '__storm_db/version')) : '', codec: codecs.size ? 'json' : '' },
    stormMeta: { 'User/__storm_metadata/IDcounter': users.idCounter },
  };
}

interface BucketRecords {
  /** Plain entries, [key, value], in key order. */
  values: Array<[Uint8Array, Uint8Array]>;
  idCounter: number;
}

/** The records of one top-level bucket (none when it is absent: `User` and `Link` appear with their first record). */
async function records(tree: BoltTree, top: Map<string, BoltEntry>, name: string, codecs: Set<string>): Promise<BucketRecords> {
  const out: BucketRecords = { values: [], idCounter: 0 };
  const entry = top.get(name);
  if (!entry) return out;
  let meta: BoltEntry | undefined;
  await tree.forEach(tree.bucket(entry, name), (e) => {
    if (!e.bucket) out.values.push([e.key, e.value]);
    else if (TEXT.decode(e.key) === META) meta = e;
  });
  if (!meta) return out;
  const ref: BucketRef = tree.bucket(meta, `${name}/${META}`);
  await tree.forEach(ref, (e) => {
    const key = TEXT.decode(e.key);
    if (e.bucket) return;
    if (key === 'codec') codecs.add(TEXT.decode(e.value));
    else if (key === 'IDcounter') {
      if (e.value.length !== 8) throw invalid(`corrupt: ${name}/${META}/IDcounter is ${e.value.length} bytes, not 8`);
      const n = new DataView(e.value.buffer, e.value.byteOffset, 8).getBigInt64(0, false); // storm writes it big-endian
      out.idCounter = Number(n);
    }
  });
  return out;
}

/** filebrowser 1.x kept `config/key` and `config/commands` and no settings; its users had `filesystem`, `allowEdit`. */
function refuseVersion1(config: Array<[Uint8Array, Uint8Array]>, users: Array<[Uint8Array, Uint8Array]>): void {
  const keys = new Set(config.map(([k]) => TEXT.decode(k)));
  const oldConfig = !keys.has('settings') && (keys.has('key') || keys.has('commands'));
  const oldUser = users.some(([, v]) => {
    const u = tryJson(v);
    return !!u && typeof u === 'object' && 'filesystem' in u && !('perm' in u);
  });
  if (oldConfig || oldUser)
    throw invalid(
      'this is a filebrowser 1.x database: migrate it to filebrowser 2 first with filebrowser 2\'s own tool ' +
        '(`filebrowser upgrade`, in releases v2.0 to v2.46), then import the upgraded database',
    );
}

function configOf(config: Array<[Uint8Array, Uint8Array]>): FbConfig {
  const byKey = new Map(config.map(([k, v]) => [TEXT.decode(k), v]));
  const need = (key: string): unknown => {
    const raw = byKey.get(key);
    if (!raw) throw invalid(`no config/${key} record: not a complete filebrowser 2 database`);
    return json(raw, `config/${key}`);
  };
  const settings = need('settings');
  const server = need('server');
  const auther = need('auther');
  const version = need('version');
  for (const [key, v] of [['settings', settings], ['server', server], ['auther', auther]] as const)
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(`corrupt: config/${key} is not a JSON object`);
  if (typeof version !== 'number') throw invalid('corrupt: config/version is not a number');
  return { auther, server, settings, version } as FbConfig;
}

function record(raw: Uint8Array, what: string): Record<string, unknown> {
  const v = json(raw, what);
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(`corrupt: ${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

function json(raw: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(TEXT.decode(raw));
  } catch (e) {
    throw invalid(`corrupt: ${what} is not valid JSON (${(e as Error).message})`);
  }
}

function tryJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(TEXT.decode(raw));
  } catch {
    return undefined;
  }
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
