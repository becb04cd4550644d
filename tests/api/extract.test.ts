import { afterEach, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tarStream from 'tar-stream';
import { ARCHIVE_FORMATS } from '../../server/contract/archive';
import { actorFor } from '../../server/services/actor';
import { createArchive } from '../../server/services/archive/archive.service';
import { tarHeader } from '../helpers/tar-header';
import { zipStream } from '../helpers/zip-writer';
import { startJob, tempsUnder, waitJob } from '../helpers/jobs-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// Extraction as a job: every format Filedeck writes (our own writers) and what the usual tools write, then hostile
// archives, each refused with a clear message and nothing written outside or left behind.
let t: TestApp;
afterEach(async () => {
  await t?.close();
}, 60_000);

/** path -> sha256 (files) or 'dir', for comparing trees. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = relative(dir, join(e.parentPath, e.name));
    out[p] = e.isDirectory() ? 'dir' : createHash('sha256').update(readFileSync(join(e.parentPath, e.name))).digest('hex');
  }
  return out;
}

function sourceTree(root: string): void {
  mkdirSync(join(root, 'src', 'deep', 'er', 'est'), { recursive: true });
  mkdirSync(join(root, 'src', 'empty'));
  writeFileSync(join(root, 'src', 'a.txt'), 'hello\n');
  writeFileSync(join(root, 'src', 'zero.bin'), '');
  writeFileSync(join(root, 'src', 'deep', 'er', 'est', 'naïve файл.txt'), 'unicode names\n');
  writeFileSync(join(root, 'src', 'random.bin'), crypto.getRandomValues(new Uint8Array(600_000)));
  writeFileSync(join(root, 'src', 'text.log'), 'line of a log\n'.repeat(200_000));
  for (let i = 0; i < 40; i++) writeFileSync(join(root, 'src', 'deep', `f${i}.txt`), `file ${i}\n`);
}

async function extract(token: string, archive: string, extra: Record<string, unknown> = {}) {
  return waitJob(t, token, (await startJob(t, token, { kind: 'extract', items: [archive], ...extra })).id);
}

test('every format Filedeck writes extracts back to the same tree', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  sourceTree(t.root);
  const want = snapshot(join(t.root, 'src'));
  const admin = (await t.s.stores.users.byId(1))!;
  const actor = actorFor(admin, { root: t.root, globalRules: [], followExternalSymlinks: false });
  mkdirSync(join(t.root, 'arch'));
  for (const format of ARCHIVE_FORMATS) {
    const made = await createArchive(actor, ['/src'], format);
    const name = `src${made.name.slice(3)}`;
    writeFileSync(join(t.root, 'arch', name), new Uint8Array(await new Response(made.stream).arrayBuffer()));
    const job = await extract(token, `/arch/${name}`, { destination: `/out-${format}` });
    expect([format, job.state, job.error]).toEqual([format, 'done', '']);
    expect(job.result?.paths).toEqual([`/out-${format}`]);
    expect([format, snapshot(join(t.root, `out-${format}`))]).toEqual([format, want]);
  }
  expect(tempsUnder(t.root)).toEqual([]);
}, 120_000);

test('archives made by zip, tar, gzip, bzip2, xz, zstd, lz4 and brotli extract (Extract here: a folder named after the archive)', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  sourceTree(t.root);
  const want = snapshot(join(t.root, 'src'));
  const sh = (cmd: string) => {
    const r = Bun.spawnSync(['sh', '-c', cmd], { cwd: join(t.root, 'src') });
    if (r.exitCode !== 0) throw new Error(`${cmd}: ${r.stderr.toString()}`);
  };
  const made: Record<string, string> = {
    'z.zip': 'zip -qr ../z.zip .',
    't.tar': 'tar cf ../t.tar .',
    't.tar.gz': 'tar czf ../t.tar.gz .',
    't.tgz': 'tar cf - . | gzip -9 > ../t.tgz',
    't.tar.bz2': 'tar cjf ../t.tar.bz2 .',
    't.tar.xz': 'tar cJf ../t.tar.xz .',
    't.tar.zst': 'tar cf - . | zstd -q -o ../t.tar.zst',
    't.tar.lz4': 'tar cf - . | lz4 -q > ../t.tar.lz4',
    't.tar.br': 'tar cf - . | brotli -c > ../t.tar.br',
  };
  for (const [name, cmd] of Object.entries(made)) {
    sh(cmd);
    const job = await extract(token, `/${name}`);
    expect([name, job.state, job.error]).toEqual([name, 'done', '']);
    const folder = job.result!.paths![0]!;
    expect([name, snapshot(join(t.root, folder))]).toEqual([name, want]);
  }
  // Extract here twice: the second keeps both.
  const again = await extract(token, '/t.tar');
  expect(again.result?.paths).toEqual(['/t(8)']); // the eight others above all keep both beside /t
  const skipped = await extract(token, '/t.tar', { conflict: 'skip' });
  expect(skipped.result).toEqual({ paths: [], skipped: ['/t'] });
  expect(tempsUnder(t.root)).toEqual([]);
}, 120_000);

/** A tar (optionally gzipped) built entry by entry with tar-stream: any name, any type. */
type TarEntry = Partial<tarStream.Header> & { name: string };

async function hostileTar(entries: TarEntry[], gzip = false): Promise<Uint8Array> {
  const pack = tarStream.pack();
  for (const e of entries) {
    if (e.type === 'file' || !e.type) pack.entry(e as tarStream.Header, 'x');
    else pack.entry(e as tarStream.Header);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  const tar = Buffer.concat(chunks);
  return gzip ? gzipSync(tar) : tar;
}

test('hostile archives are refused with a clear message; nothing is written outside or left behind', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  const outside = dirname(t.root);
  mkdirSync(join(t.root, 'in'));
  const cases: [string, Uint8Array | (() => Promise<Uint8Array>), string][] = [
    ['slip.tar', await hostileTar([{ name: 'ok.txt' }, { name: '../../evil.txt' }]), 'leading out of its folder'],
    ['slip2.tar', await hostileTar([{ name: 'a/../../evil.txt' }]), 'leading out of its folder'],
    ['abs.tar', await hostileTar([{ name: '/tmp/evil-abs.txt' }]), 'absolute name'],
    ['back.tar', await hostileTar([{ name: '..\\evil.txt' }]), 'backslash'],
    ['sym.tar.gz', await hostileTar([{ name: 'link', type: 'symlink', linkname: '../../../../etc/passwd' }, { name: 'link/evil.txt' }], true), 'symbolic link'],
    ['symin.tar', await hostileTar([{ name: 'd', type: 'directory' }, { name: 'inlink', type: 'symlink', linkname: 'd' }]), 'symbolic link'],
    ['hard.tar', await hostileTar([{ name: 'h', type: 'link', linkname: '/etc/passwd' }]), 'hard link'],
    ['dev.tar', await hostileTar([{ name: 'null', type: 'character-device', devmajor: 1, devminor: 3 }]), 'device file'],
    ['fifo.tar', await hostileTar([{ name: 'p', type: 'fifo' }]), 'FIFO'],
    ['temp.tar', await hostileTar([{ name: '.filedeck-abc.part' }]), 'reserved name'],
    ['twice.tar', await hostileTar([{ name: 'same.txt' }, { name: 'same.txt' }]), 'appears twice'],
    ['slip.zip', () => hostileZipOf(['fine.txt', '../evil.txt']), 'leading out of its folder'],
    ['abs.zip', () => hostileZipOf(['/evil-abs.txt']), 'absolute name'],
    ['back.zip', () => hostileZipOf(['..\\evil.txt']), 'backslash'],
    ['damaged.zip', new TextEncoder().encode('PK\x03\x04 this is not a zip'), 'damaged'],
    ['damaged.tar.gz', new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]), 'damaged'],
  ];
  for (const [name, bytes, message] of cases) {
    writeFileSync(join(t.root, 'in', name), typeof bytes === 'function' ? await bytes() : bytes);
    const job = await extract(token, `/in/${name}`, { destination: `/x-${name}` });
    expect([name, job.state, job.error]).toEqual([name, 'failed', expect.stringContaining(message)]);
    expect([name, existsSync(join(t.root, `x-${name}`))]).toEqual([name, false]);
  }
  // A zip holding a symlink (made by zip -y) is refused the same way.
  mkdirSync(join(t.root, 'mk'));
  symlinkSync('/etc/passwd', join(t.root, 'mk', 'pw'));
  Bun.spawnSync(['zip', '-qy', join(t.root, 'in', 'sym.zip'), 'pw'], { cwd: join(t.root, 'mk') });
  const symZip = await extract(token, '/in/sym.zip', { destination: '/x-symzip' });
  expect([symZip.state, symZip.error]).toEqual(['failed', expect.stringContaining('symbolic link')]);
  expect(readdirSync(outside).filter((n) => n.startsWith('evil'))).toEqual([]);
  expect(existsSync('/tmp/evil-abs.txt')).toBe(false);
  expect(readdirSync(t.root).sort()).toEqual(['in', 'mk']);
  expect(tempsUnder(t.root)).toEqual([]);
}, 60_000);

async function hostileZipOf(names: string[]): Promise<Uint8Array> {
  const entries = (async function* () {
    for (const name of names) yield { name, dir: false, mode: 0o644, mtime: new Date(), size: 1, body: (async function* () { yield new Uint8Array([120]); })() };
  })();
  const parts: Uint8Array[] = [];
  for await (const c of zipStream(entries)) parts.push(c);
  return Buffer.concat(parts);
}

/** A gzip member of `n` zero bytes, made once: concatenated members are one valid gzip stream. */
const zerosMember = (n: number) => gzipSync(new Uint8Array(n), { level: 9 });

test('bombs: a tar.gz declaring 11 GB, real expansion past the byte and ratio limits, too many entries', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  mkdirSync(join(t.root, 'in'));
  // 11 GB of zeros declared by the header, 64 MiB of them actually sent (the rest would be more of the same):
  // refused under the default limits (10 GiB) before a byte is written.
  const header = tarHeader({ name: 'zeros.bin', dir: false, mode: 0o644, mtime: new Date(), size: 11 * 1024 ** 3 });
  writeFileSync(join(t.root, 'in', 'big.tar.gz'), Buffer.concat([gzipSync(header), zerosMember(64 * 1024 * 1024)]));
  const big = await extract(token, '/in/big.tar.gz');
  expect([big.state, big.error]).toEqual(['failed', expect.stringContaining('larger than 10737418240 bytes')]);

  // Real bytes past the total limit (the header tells the truth, the limit is lower): stopped within a chunk.
  await t.s.settings.update({ extraction: { maxBytes: 20 * 1024 * 1024, maxEntryBytes: 1024 ** 3, maxRatio: 1_000_000 } });
  const parts = [];
  for (let i = 0; i < 4; i++) parts.push(tarHeader({ name: `z${i}.bin`, dir: false, mode: 0o644, mtime: new Date(), size: 8 * 1024 * 1024 }), new Uint8Array(8 * 1024 * 1024));
  writeFileSync(join(t.root, 'in', 'total.tar.gz'), gzipSync(Buffer.concat([...parts, new Uint8Array(1024)])));
  const total = await extract(token, '/in/total.tar.gz');
  expect([total.state, total.error]).toEqual(['failed', expect.stringContaining('expands past 20971520 bytes')]);

  // The compression ratio: a zip of 64 MiB of zeros (made by zip, deflate) against a ratio of 100.
  await t.s.settings.update({ extraction: { maxBytes: 1024 ** 3, maxRatio: 100 } });
  writeFileSync(join(t.root, 'in', 'zeros.raw'), new Uint8Array(64 * 1024 * 1024));
  Bun.spawnSync(['zip', '-qj', join(t.root, 'in', 'ratio.zip'), join(t.root, 'in', 'zeros.raw')]);
  expect(statSync(join(t.root, 'in', 'ratio.zip')).size).toBeLessThan(200_000);
  const ratio = await extract(token, '/in/ratio.zip');
  expect([ratio.state, ratio.error]).toEqual(['failed', expect.stringContaining('more than 100 times its size')]);

  // Too many entries (the limit lowered for the test; the default is 100,000).
  await t.s.settings.update({ extraction: { maxEntries: 1000, maxRatio: 1000 } });
  writeFileSync(join(t.root, 'in', 'many.tar.gz'), await hostileTar(Array.from({ length: 1500 }, (_, i) => ({ name: `m/${i}.txt` })), true));
  const many = await extract(token, '/in/many.tar.gz');
  expect([many.state, many.error]).toEqual(['failed', expect.stringContaining('more than 1000 entries')]);

  expect(readdirSync(t.root).sort()).toEqual(['in']);
  expect(tempsUnder(t.root)).toEqual([]);
  // Bad limits are refused by the settings validation.
  const r = await t.req('PUT', '/api/settings', { token, body: { extraction: { maxEntries: -1 } } });
  expect(r.status).toBe(400);
}, 120_000);

test('per-entry rules and permissions apply as for an upload; cancel leaves nothing', async () => {
  t = await makeTestApp();
  mkdirSync(join(t.root, 'in'));
  writeFileSync(join(t.root, 'in', 'r.tar'), await hostileTar([{ name: 'ok.txt' }, { name: 'secret/key.txt' }]));
  const carol = await t.userToken('carol', {}, { scope: '/', rules: [{ allow: false, path: '/in/r/secret', regex: false }] });
  const ruled = await extract(carol, '/in/r.tar');
  expect(ruled.state).toBe('failed');
  expect(existsSync(join(t.root, 'r'))).toBe(false);
  const dave = await t.userToken('dave', { create: false }, { scope: '/' });
  expect((await t.req('POST', '/api/jobs', { token: dave, body: { kind: 'extract', items: ['/in/r.tar'] } })).status).toBe(403);
  // A big extraction cancelled midway: no folder, no temp.
  const admin = await t.adminToken();
  const many = Array.from({ length: 4000 }, (_, i) => ({ name: `big/${i % 40}/${i}.txt` }));
  writeFileSync(join(t.root, 'in', 'big.tar'), await hostileTar(many));
  const job = await startJob(t, admin, { kind: 'extract', items: ['/in/big.tar'] });
  for (let i = 0; i < 400; i++) {
    const j = await (await t.req('GET', `/api/jobs/${job.id}`, { token: admin })).json();
    if (j.progress.filesDone > 10 || j.state !== 'running') break;
    await Bun.sleep(5);
  }
  await t.req('DELETE', `/api/jobs/${job.id}`, { token: admin });
  const end = await waitJob(t, admin, job.id);
  expect(end.state).toBe('cancelled');
  expect(existsSync(join(t.root, 'in', 'big'))).toBe(false);
  expect(tempsUnder(t.root)).toEqual([]);
}, 60_000);
