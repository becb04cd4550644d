import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../helpers/binary';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { random, sha256 } from '../helpers/transfer-fixture';

// Archives of a folder and of a `files=` selection, in every format, checked with the system's own tools.
// Downloads go to a server in a child process over the same root and database: a codec that freezes the
// event loop must make its test fail, not hang the whole test run.

let t: TestApp;
let token: string;
let work: string;
let server: RunningServer | null = null;
const boot = async () => void (server = await startServer(['-d', t.database, '-r', t.root, '--log', ''], { cwd: work }));
async function kill() {
  server?.proc.kill('SIGKILL');
  await server?.proc.exited;
  server = null;
}

/** GET through the child server; a response not complete within 15 s restarts it and fails the caller. */
async function download(path: string): Promise<{ r: Response; body: Uint8Array }> {
  if (!server || server.proc.exitCode !== null) await boot();
  try {
    const r = await fetch(server!.url + path, { headers: { 'X-Auth': token }, signal: AbortSignal.timeout(15_000) });
    return { r, body: new Uint8Array(await r.arrayBuffer()) };
  } catch (e) {
    const why = crash() ?? 'stalled or froze';
    await kill();
    throw new Error(`GET ${path}: no complete answer (${(e as Error).message}); the server ${why}`);
  }
}
/** `p`'s value, or undefined when it takes longer than `ms` (the timer is cleared either way). */
function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const id = setTimeout(() => resolve(undefined), ms);
    p.then((v) => (clearTimeout(id), resolve(v)), (e) => (clearTimeout(id), reject(e)));
  });
}
/** The child server's fatal error, if it died of one. */
function crash(): string | null {
  const m = /\n(\w*Error: [^\n]*)\n\s+at ([^\n]*)/.exec(server?.output() ?? '');
  return m ? `crashed: ${m[1]} at ${m[2]}` : server?.proc.exitCode != null ? `exited with ${server.proc.exitCode}` : null;
}
const ENV = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
const BIG = random(3 * 1024 * 1024);
const LONG = `${'long-name-'.repeat(13)}end.txt`; // 137 bytes: needs ustar prefix/pax in tar

/** Every file of /a as the user sees it: relative path -> sha256. Folders separately. */
const files = new Map<string, string>();
const dirs = new Set<string>();

function put(rel: string, data: Uint8Array | string) {
  const p = join(t.root, 'a', rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, data);
}

beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
  work = mkdtempSync(join(tmpdir(), 'filedeck-arch-'));
  const add = (rel: string, data: Uint8Array | string) => {
    put(rel, data);
    files.set(rel, sha256(data));
  };
  add('big.bin', BIG);
  add('top.txt', 'top level\n');
  add('.dotfile', 'dot');
  add('empty-file.txt', '');
  // A name that starts like a drive letter ("word:"): archiver would drop that part; it is kept (given as "./notes:...").
  add('notes:2024.txt', 'colon');
  for (let i = 0; i < 10; i++) add(`sub dir/file ${i}.txt`, `file number ${i}\n`.repeat(i * 50 + 1));
  for (let i = 0; i < 6; i++) add(`ünï cødé/deep/deeper/ñame ${i} ü.bin`, random(1000 + i));
  add('ünï cødé/日本語.txt', 'こんにちは');
  add(`ünï cødé/deep/${LONG}`, 'long');
  for (let i = 0; i < 5; i++) add(`nested/l1/l2/l3/f${i}.txt`, `nested ${i}`);
  mkdirSync(join(t.root, 'a', 'empty'));
  for (const d of ['sub dir', 'ünï cødé', 'ünï cødé/deep', 'ünï cødé/deep/deeper', 'nested', 'nested/l1', 'nested/l1/l2', 'nested/l1/l2/l3', 'empty']) dirs.add(d);
  // A name with backslashes on disk: archived with "_" in their place, never as folders.
  put('evil\\..\\x.txt', 'backslashes');
  files.set('evil_.._x.txt', sha256('backslashes'));
  // Denied by a global path rule (folder) and a regex rule (file): silently skipped.
  put('secret/s1.txt', 'hidden 1');
  put('secret/inner/s2.txt', 'hidden 2');
  put('sub dir/private.key', 'key material');
  (await t.s.settings.update({ rules: [{ allow: false, regex: false, path: '/a/secret' }, { allow: false, regex: true, regexp: { raw: 'private\\.key$' } }] }, ['rules']));
  // Never archived: our own in-progress upload files, and a link leaving the scope.
  put('.filedeck-AbCdEf0123.part', 'partial');
  symlinkSync('/etc/hostname', join(t.root, 'a', 'escape.txt'));
  expect(files.size).toBeGreaterThanOrEqual(28);
  await boot();
});

afterAll(async () => {
  await kill();
  t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function run(cmd: string[], cwd = work): Buffer {
  const p = Bun.spawnSync(cmd, { cwd, env: ENV, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed (${p.exitCode}): ${p.stderr.toString()}`);
  return p.stdout;
}

/** Files (rel -> sha256) and folders found under an extraction folder. */
function tree(root: string, base = ''): { files: Map<string, string>; dirs: Set<string> } {
  const out = { files: new Map<string, string>(), dirs: new Set<string>() };
  for (const name of readdirSync(join(root, base))) {
    const rel = base ? `${base}/${name}` : name;
    if (statSync(join(root, rel)).isDirectory()) {
      out.dirs.add(rel);
      const sub = tree(root, rel);
      for (const [k, v] of sub.files) out.files.set(k, v);
      for (const d of sub.dirs) out.dirs.add(d);
    } else out.files.set(rel, sha256(readFileSync(join(root, rel))));
  }
  return out;
}

/** The filename* of a Content-Disposition, decoded. */
function dispositionName(h: string | null): string {
  const m = /filename\*=UTF-8''([^;]+)/i.exec(h ?? '');
  expect(m).not.toBeNull();
  return decodeURIComponent(m![1]!);
}

async function snappyDecode(data: Uint8Array): Promise<Uint8Array> {
  const { Decompressor } = require('snappy');
  const d = new Decompressor();
  const parts: Uint8Array[] = [];
  const keep = (o: Uint8Array) => void (o.length && parts.push(Buffer.from(o))); // an empty napi result is a detached view
  for (let i = 0; i < data.length; i += 65536) keep(d.update(data.slice(i, i + 65536)));
  keep(await d.finish());
  return Buffer.concat(parts);
}

/** Checks an archive's integrity with the system tools; returns the entry names and the extracted tree. */
async function open(kind: string, body: Uint8Array, id: string) {
  const dir = join(work, id);
  mkdirSync(join(dir, 'x'), { recursive: true });
  const file = join(dir, `archive${kind}`);
  writeFileSync(file, body);
  if (kind === '.zip') {
    const names = run(['unzip', '-Z1', file]).toString('utf8').split('\n').filter(Boolean);
    run(['unzip', '-tq', file]);
    run(['unzip', '-q', file, '-d', join(dir, 'x')]);
    expect(sha256(run(['unzip', '-p', file, 'big.bin']))).toBe(sha256(BIG));
    return { names, tree: tree(join(dir, 'x')) };
  }
  let tar = file;
  if (kind !== '.tar') {
    tar = join(dir, 'plain.tar');
    if (kind === '.tar.gz') {
      run(['gzip', '-t', file]);
      run(['tar', '-xzf', file, '-C', join(dir, 'x')]);
      writeFileSync(tar, run(['gzip', '-dc', file]));
    } else if (kind === '.tar.sz') {
      writeFileSync(tar, await snappyDecode(body));
    } else {
      // Debian's own tools check and unpack each format (brotli and zstd are installed by npm test).
      const tool = { '.tar.bz2': 'bzip2', '.tar.xz': 'xz', '.tar.lz4': 'lz4', '.tar.br': 'brotli', '.tar.zst': 'zstd' }[kind]!;
      run([tool, '-t', file]);
      writeFileSync(tar, run([tool, '-dc', file]));
    }
  }
  const names = run(['tar', '--quoting-style=literal', '-tf', tar]).toString('utf8').split('\n').filter(Boolean);
  run(['tar', '-xf', tar, '-C', join(dir, 'x')]);
  return { names, tree: tree(join(dir, 'x')) };
}

/** Asserts the archive holds exactly `wantFiles` with identical bytes, the `wantDirs` folders and nothing else. */
function expectContent(got: { names: string[]; tree: { files: Map<string, string>; dirs: Set<string> } }, wantFiles: Map<string, string>, wantDirs: Set<string>) {
  const fileNames = got.names.filter((n) => !n.endsWith('/')).map((n) => n.replace(/^\.\//, '')).sort();
  expect(fileNames).toEqual([...wantFiles.keys()].sort());
  for (const n of got.names) {
    expect(n.startsWith('/')).toBe(false);
    expect(n.split('/')).not.toContain('..');
    expect(n).not.toContain('\\');
  }
  expect(got.tree.files).toEqual(wantFiles);
  expect(got.tree.dirs).toEqual(wantDirs);
  expect(got.tree.files.get('big.bin')).toBe(sha256(BIG));
}

const ALGOS: [string, string][] = [
  ['zip', '.zip'], ['true', '.zip'], ['', '.zip'], ['tar', '.tar'],
  ['tar.gz', '.tar.gz'], ['targz', '.tar.gz'], ['tar.bz2', '.tar.bz2'], ['tarbz2', '.tar.bz2'],
  ['tar.xz', '.tar.xz'], ['tarxz', '.tar.xz'], ['tar.lz4', '.tar.lz4'], ['tarlz4', '.tar.lz4'],
  ['tar.sz', '.tar.sz'], ['tarsz', '.tar.sz'], ['tar.br', '.tar.br'], ['tarbr', '.tar.br'], ['tar.zst', '.tar.zst'], ['tarzst', '.tar.zst'],
];

/** The client's encoding of a selection: each path URL-encoded, the comma-joined list encoded again. */
const selection = (paths: string[]) => encodeURIComponent(paths.map((p) => p.split('/').map(encodeURIComponent).join('/')).join(','));

describe('GET /api/raw archives', () => {
  test.each(ALGOS)('folder, algo=%p: every allowed entry, relative to the folder, identical bytes', async (algo, ext) => {
    const { r, body } = await download(`/api/raw/a?algo=${encodeURIComponent(algo)}`);
    expect(r.status).toBe(200);
    expect(dispositionName(r.headers.get('content-disposition'))).toBe(`a${ext}`);
    expect(r.headers.get('content-disposition')!.startsWith('attachment;')).toBe(true);
    if (ext === '.zip') expect(r.headers.get('content-type')).toBe('application/zip');
    const got = await open(ext, body, `dir-${algo || 'empty'}`);
    expectContent(got, files, dirs);
  }, 60_000);

  test.each(ALGOS)('files= selection, algo=%p: names relative to the common parent, archive named _parent', async (algo, ext) => {
    const picked = ['/a/sub dir', '/a/ünï cødé', '/a/big.bin', '/a/top.txt'];
    const { r, body } = await download(`/api/raw/?files=${selection(picked)}&algo=${encodeURIComponent(algo)}`);
    expect(r.status).toBe(200);
    expect(dispositionName(r.headers.get('content-disposition'))).toBe(`_a${ext}`);
    const got = await open(ext, body, `sel-${algo || 'empty'}`);
    const keep = (p: string) => ['sub dir', 'ünï cødé'].some((d) => p === d || p.startsWith(`${d}/`)) || p === 'big.bin' || p === 'top.txt';
    const want = new Map([...files].filter(([p]) => keep(p)));
    const wantDirs = new Set([...dirs].filter(keep));
    expectContent(got, want, wantDirs);
    // the selected folders themselves are entries too
    expect(got.names.filter((n) => n.endsWith('/')).map((n) => n.slice(0, -1))).toEqual(expect.arrayContaining(['sub dir', 'ünï cødé']));
  }, 60_000);

  test('a selection relative to the request path; a missing entry is 404 and a denied one 403', async () => {
    const r = await t.req('GET', `/api/raw/a?files=${selection(['/nested/l1', '/top.txt'])}&algo=tar`, { token });
    expect(r.status).toBe(200);
    expect(dispositionName(r.headers.get('content-disposition'))).toBe('_a.tar');
    const got = await open('.tar', new Uint8Array(await r.arrayBuffer()), 'relative');
    expect(got.names.filter((n) => !n.endsWith('/')).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `nested/l1/l2/l3/f${i}.txt`).concat('top.txt'));
    expect((await t.req('GET', `/api/raw/?files=${selection(['/a/top.txt', '/a/nope.txt'])}&algo=zip`, { token })).status).toBe(404);
    expect((await t.req('GET', `/api/raw/?files=${selection(['/a/top.txt', '/a/secret'])}&algo=zip`, { token })).status).toBe(403);
  }, 30_000);

  test('clients hanging up mid-archive do not take the server down', async () => {
    // 20 MB in 200 folders: far more than the socket buffers hold, so the server is mid-archive when a client goes.
    for (let i = 0; i < 200; i++) put(`../many/d${i}/f.bin`, random(100_000));
    const broken: string[] = [];
    for (const algo of ['zip', 'tar', 'tar.gz', 'tar.xz', 'tar.lz4', 'tar.sz', 'tar.bz2', 'tar.br', 'tar.zst']) {
      await kill(); // a fresh server for every format
      await boot();
      // Hang up at varying points and in both orders (abort then cancel the body, or the reverse).
      for (let n = 0; n < 20 && server!.proc.exitCode === null; n++) {
        const ac = new AbortController();
        const r = await within(fetch(`${server!.url}/api/raw/many?algo=${algo}`, { headers: { 'X-Auth': token }, signal: ac.signal }), 15_000);
        if (!r) {
          ac.abort();
          broken.push(`${algo}: no response headers within 15 s (the server froze)`);
          break;
        }
        expect(r.status).toBe(200);
        const reader = r.body!.getReader();
        for (let i = 0; i <= n % 5; i++) if ((await within(reader.read(), 15_000)) === undefined) break;
        if (n % 2) {
          void reader.cancel().catch(() => {});
          await Bun.sleep(n % 3);
          ac.abort();
        } else {
          ac.abort();
          void reader.cancel().catch(() => {});
        }
        await Bun.sleep(200); // let the server tear the archive down (not a timing assertion)
      }
      if (broken.at(-1)?.startsWith(algo)) continue;
      if (server!.proc.exitCode !== null) {
        broken.push(`${algo}: the server process died: ${crash()}`);
        continue;
      }
      try {
        const { r: after, body } = await download('/api/raw/a/top.txt');
        expect(after.status).toBe(200);
        expect(new TextDecoder().decode(body)).toBe('top level\n');
      } catch (e) {
        broken.push(`${algo}: ${(e as Error).message}`);
      }
    }
    expect(broken).toEqual([]);
  }, 240_000);

  test('unknown algorithms are 400, for a folder and for a selection', async () => {
    for (const algo of ['rar', 'tar.lzma', 'tarlz', '7z', 'ZIPX']) {
      expect((await t.req('GET', `/api/raw/a?algo=${algo}`, { token })).status).toBe(400);
      expect((await t.req('GET', `/api/raw/?files=${selection(['/a/top.txt', '/a/big.bin'])}&algo=${algo}`, { token })).status).toBe(400);
    }
  });
});
