import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { USER_PASSWORD, type TestApp } from './test-app';

export const TEXT = 'hello from filedeck\n';
export const BIN = new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7, 8, 9, 0, 0]);
export const sha256 = (b: string | Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex');

let pngBytes: Uint8Array | null = null;
/** A 64x64 grey PNG. */
export async function png(): Promise<Uint8Array> {
  const { Transformer } = await import('@napi-rs/image');
  pngBytes ??= new Uint8Array(await Transformer.fromRgbaPixels(new Uint8Array(64 * 64 * 4).fill(200), 64, 64).png());
  return pngBytes;
}

/** Writes a tree under `root`: a key ending in "/" is a folder, otherwise a file with that content. */
export function put(root: string, tree: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(tree)) {
    const p = join(root, rel);
    if (rel.endsWith('/')) mkdirSync(p, { recursive: true });
    else {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
    }
  }
}

/**
 * Every entry below `dir` (symlinks not followed): "d", "f:<size>:<sha256>" or "l:<target>", keyed by relative
 * path. `skip` drops subtrees (e.g. the database folder, which changes on every request).
 */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip(r)) continue;
      const p = join(dir, r);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[r] = `l:${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[r] = 'd';
        walk(r);
      } else out[r] = `f:${st.size}:${sha256(readFileSync(p)).slice(0, 16)}`;
    }
  };
  walk('');
  return out;
}

/** Everything under the test's temp folder except the database and preview cache. */
export const diskState = (t: TestApp) => snapshot(t.dir, (r) => r === 'db');

/** Sends a request whose path is used exactly as written (the Request URL parser may still resolve "." and ".."). */
export function raw(t: TestApp, method: string, path: string, init: { token?: string; headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token) headers['X-Auth'] = init.token;
  return t.app.handle(new Request(`http://localhost${path}`, { method, headers, body: init.body }));
}

/** The PATCH destination as the web app sends it: the path encoded twice. */
export const dest = (p: string) => encodeURIComponent(encodeURIComponent(p));

async function run(cmd: string[], stdin?: Uint8Array): Promise<string> {
  const p = Bun.spawn(cmd, { stdin: stdin ?? 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(' ')} failed (${code}): ${err}`);
  return out;
}

/** Entry names of a zip, as `unzip -Z1` prints them (raw names, no conversion). */
export async function zipNames(bytes: Uint8Array): Promise<string[]> {
  const d = mkdtempSync(join(tmpdir(), 'filedeck-zip-'));
  try {
    writeFileSync(join(d, 'a.zip'), bytes);
    return (await run(['unzip', '-Z1', join(d, 'a.zip')])).split('\n').filter(Boolean).sort();
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

/** Entry names of an uncompressed tar, read from stdin by `tar -tf -`. */
export async function tarNames(bytes: Uint8Array): Promise<string[]> {
  return (await run(['tar', '-tf', '-'], bytes)).split('\n').filter(Boolean).sort();
}

/** Names that an extractor could turn into a path outside its target folder. */
export const unsafeEntry = (n: string) => n.includes('\\') || n.startsWith('/') || n.split('/').includes('..');

/** True when `needle` occurs anywhere in the bytes (our zips are STORE, tars are uncompressed). */
export const containsBytes = (hay: Uint8Array, needle: string) => Buffer.from(hay).includes(Buffer.from(needle));

/** Registers a tus upload directly in the store (for users the API would not let register one). */
export async function registerUpload(t: TestApp, userId: number, path: string, length: number, scopeDir = t.root): Promise<string> {
  const tempPath = join(scopeDir, '.filedeck-matrixtestupload.part');
  writeFileSync(tempPath, '');
  (await t.s.stores.uploads.put({ userId, path, tempPath, length, override: false, expiresAt: Date.now() + 600_000 }));
  return tempPath;
}

export const userId = async (t: TestApp, name: string) => (name === 'admin' ? 1 : (await t.s.stores.users.byUsername(name))!.id);

let userHash: Promise<string> | null = null;
/** Like t.userToken, but reuses one bcrypt hash of USER_PASSWORD (hashing costs ~60 ms a user). */
export async function fastUserToken(t: TestApp, username: string, perm: Record<string, boolean> = {}, extra: Record<string, unknown> = {}): Promise<string> {
  userHash ??= Bun.password.hash(USER_PASSWORD, { algorithm: 'bcrypt', cost: 10 });
  await t.s.users.create({ username, password: await userHash, perm: { ...t.s.settings.get().defaults.perm, ...perm }, ...extra }, { passwordIsHash: true });
  return t.login(username, USER_PASSWORD);
}
