import { afterEach, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RootIdentityStore } from '../../server/db/root-identity.store';
import { holdRoot, markerPath } from '../../server/services/setup/root-identity';
import { cli, startServer } from '../helpers/binary';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 32: a files root that is missing, empty where it held files, or not the folder or disk this database
 * served (a NAS not mounted yet at boot) is not served: `filedeck serve` stops with the reason and the way forward
 * (`--accept-new-root`), and `filedeck doctor` says the same. The identity is the root's device and inode and a
 * marker file kept inside the trash folder (services/setup/root-identity.ts).
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const store = () => new RootIdentityStore(t.s.db);
/** The start-up check as `serve` runs it (links counted for a root never recorded). */
const hold = (root: string, opts: { accept?: boolean } = {}) => holdRoot(store(), root, { ...opts, hasLinks: () => t.s.stores.shares.any() });
/** The start-up check's refusal message, or null when it passes. */
const refusal = (root = t.root) =>
  hold(root).then(
    () => null,
    (e: Error) => e.message,
  );

describe('the files root this database served, and only it', () => {
  test('the first start records it; the same root passes; the marker is out of every user path', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'a.txt'), 'a');
    expect(await store().get()).toBeNull();
    expect(await hold(t.root)).toBeNull();
    const rec = (await store().get())!;
    const st = statSync(t.root);
    expect(rec).toMatchObject({ root: t.root, device: String(st.dev), inode: String(st.ino), heldFiles: true });
    expect(readFileSync(markerPath(t.root), 'utf8').trim()).toBe(rec.marker);
    expect(await hold(t.root)).toBeNull();
    const admin = await t.adminToken();
    const listing = await (await t.req('GET', '/api/resources/', { token: admin })).json();
    expect(listing.items.map((i: { name: string }) => i.name)).toEqual(['a.txt']);
    expect((await t.req('GET', '/api/raw/.filedeck-trash/.root-id', { token: admin })).status).toBe(404);
  });

  test('a disk not mounted (no folder, an empty mount point) or emptied without its marker is refused, and never made', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'a.txt'), 'a');
    await hold(t.root);
    const away = `${t.root}.away`;
    renameSync(t.root, away);
    expect(await refusal()).toMatch(/files root .* does not exist, but this database served files from it.*accept-new-root/);
    expect(existsSync(t.root)).toBe(false); // nothing made on the disk below the mount point
    mkdirSync(t.root); // the mount point left empty
    expect(await refusal()).toMatch(/another folder than the one last served|on device/);
    rmSync(t.root, { recursive: true });
    renameSync(away, t.root);
    expect(await refusal()).toBeNull();
    // The same folder, its files and marker gone: empty where it held files.
    rmSync(join(t.root, 'a.txt'));
    unlinkSync(markerPath(t.root));
    expect(await refusal()).toMatch(/is empty and its marker is missing, but it held files/);
    // The same folder with files and no marker (removed by hand): served, the marker written again.
    writeFileSync(join(t.root, 'b.txt'), 'b');
    expect(await hold(t.root)).toMatch(/marker was missing/);
    expect(existsSync(markerPath(t.root))).toBe(true);
  });

  test('another disk without the marker is refused; a copy of the disk holding it is served and recorded anew', async () => {
    t = await makeTestApp();
    // A second filesystem: /dev/shm (tmpfs) where it is one; the root's path is a link re-pointed between disks.
    const other = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(t.dir).dev ? mkdtempSync('/dev/shm/filedeck-root-') : null;
    if (!other) return; // no second filesystem here: the device comparison cannot be shown
    try {
      const served = join(t.dir, 'served');
      const disk = join(t.dir, 'disk');
      mkdirSync(disk);
      writeFileSync(join(disk, 'a.txt'), 'a');
      symlinkSync(disk, served);
      await hold(served);
      const before = (await store().get())!;
      unlinkSync(served);
      symlinkSync(other, served); // another disk, empty, at the root's path
      expect(await refusal(served)).toMatch(/on device \d+, but it was on device \d+ when last served/);
      cpSync(disk, join(other, 'copy'), { recursive: true }); // the same files, marker included, on the other disk
      unlinkSync(served);
      symlinkSync(join(other, 'copy'), served);
      expect(await hold(served)).toMatch(/holds its marker; recorded anew \(device/);
      const after = (await store().get())!;
      expect(after.marker).toBe(before.marker);
      expect(after.device).toBe(String(statSync(other).dev));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('two instances starting at once on one database record one root and one marker', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'a.txt'), 'a');
    expect(await Promise.all([hold(t.root), hold(t.root), hold(t.root)])).toEqual([null, null, null]);
    const rec = (await store().get())!;
    expect(readFileSync(markerPath(t.root), 'utf8').trim()).toBe(rec.marker);
    expect(await refusal()).toBeNull();
  });

  test('another root\'s marker is refused; --accept-new-root adopts the root found', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'a.txt'), 'a');
    await hold(t.root);
    const theirs = 'ANOTHERinstallationsMARKER';
    writeFileSync(markerPath(t.root), `${theirs}\n`);
    expect(await refusal()).toMatch(/holds another root's marker/);
    expect(await hold(t.root, { accept: true })).toMatch(/accept-new-root/);
    expect((await store().get())!.marker).toBe(theirs);
    expect(await refusal()).toBeNull();
  });

  test('a root never recorded (served by an older version) that is empty or missing while links exist is refused', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.root, 'docs'));
    writeFileSync(join(t.root, 'docs/a.txt'), 'a');
    const admin = await t.adminToken();
    expect((await t.req('POST', '/api/share/docs/a.txt', { token: admin, body: {} })).status).toBe(200);
    const away = `${t.root}.away`;
    renameSync(t.root, away);
    expect(await refusal()).toMatch(/does not exist/);
    mkdirSync(t.root);
    expect(await refusal()).toMatch(/is empty, but this database holds links to files in it/);
    expect(await store().get()).toBeNull();
    rmSync(t.root, { recursive: true });
    renameSync(away, t.root);
    expect(await refusal()).toBeNull();
  });
});

describe('filedeck serve and doctor', () => {
  test('serve stops with the reason on a root not mounted, doctor FAILs with it, --accept-new-root serves', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'a.txt'), 'a');
    await hold(t.root);
    const cwd = mkdtempSync(join(tmpdir(), 'filedeck-root-id-'));
    try {
      const args = ['-d', t.database, '-r', t.root];
      renameSync(t.root, `${t.root}.away`);
      const refused = await cli([...args, 'serve', '--port', '0'], { cwd });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/filedeck: the files root .* does not exist, but this database served files from it\. Not serving it: is its disk mounted\?.*--accept-new-root/);
      expect(existsSync(t.root)).toBe(false);
      const doctor = await cli([...args, 'doctor', '--json'], { cwd });
      expect(doctor.code).toBe(1);
      const check = (JSON.parse(doctor.stdout).checks as { name: string; status: string; message: string; fix: string }[]).find((c) => c.name === 'files root identity');
      expect(check).toMatchObject({ status: 'FAIL' });
      expect(check!.message).toMatch(/does not exist.*refuses to start/);
      expect(check!.fix).toMatch(/accept-new-root/);
      const server = await startServer([...args, '--accept-new-root'], { cwd });
      try {
        expect(server.output()).toMatch(/accept-new-root: .* is now this database's files root/);
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
      } finally {
        await server.stop();
      }
      expect(existsSync(markerPath(t.root))).toBe(true);
      const ok = await cli([...args, 'doctor', '--json'], { cwd });
      expect((JSON.parse(ok.stdout).checks as { name: string; status: string }[]).find((c) => c.name === 'files root identity')!.status).toBe('OK');
    } finally {
      rmSync(`${t.root}.away`, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
