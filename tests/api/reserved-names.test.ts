import { afterEach, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TempSweep } from '../../server/services/files/temp-sweep';
import { startJob, waitJob } from '../helpers/jobs-fixture';
import { runScenarios, type Scenario } from '../helpers/scenario';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * The server's own names (`.filedeck-…`: temps, the trash, whatever it sweeps) are one invariant
 * (fs/reserved-names.ts refuseReserved, called by ScopePaths.destination): no write of any kind may take one, and
 * the sweep removes only temps that carry the server's proof, never a user's file that merely looks like one.
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp; // scenario rows make and close their own apps
});

const TUS = { 'Tus-Resumable': '1.0.0' };
const TEMP_LIKE = '.filedeck-0123456789abcdef.part';

/** alice's report in a shared folder; mallory may create and rename there, but not delete. Answers mallory's token. */
async function prepare(app: TestApp): Promise<string> {
  mkdirSync(join(app.root, 'shared/alice'), { recursive: true });
  writeFileSync(join(app.root, 'shared/alice/report.pdf'), 'alice\'s work');
  mkdirSync(join(app.root, 'shared/alice/folder'));
  return app.userToken('mallory', { create: true, rename: true, modify: true, delete: false, download: true }, { scope: '/shared' });
}

async function setup() {
  t = await makeTestApp();
  const mallory = await prepare(t);
  return { mallory, admin: await t.adminToken() };
}

const q = encodeURIComponent;

/** Each write of mallory's that would take a reserved name: refused, and alice's folder on disk exactly as before. */
const refused = (name: string, method: string, url: string, extra: Partial<Scenario> = {}): Scenario => ({
  name,
  as: 'mallory',
  method,
  url,
  status: 400,
  contains: 'reserved name',
  disk: { under: 'shared', after: 'same' },
  ...extra,
});

describe('no write takes a reserved name', () => {
  runScenarios(
    'rename, copy, upload, new folder, tus creation',
    async (app) => ({ mallory: await prepare(app) }),
    [
      refused('rename of another user\'s file to a temp-like name', 'PATCH', `/api/resources/alice/report.pdf?action=rename&destination=${q(`/alice/${TEMP_LIKE}`)}`),
      refused('rename of another user\'s folder to a temp-like name', 'PATCH', `/api/resources/alice/folder?action=rename&destination=${q('/alice/.filedeck-abcdefgh.part')}`),
      refused('rename to the trash\'s own name: unreachable at any depth', 'PATCH', `/api/resources/alice/report.pdf?action=rename&destination=${q('/alice/.filedeck-trash')}`, { status: 404, contains: [] }),
      refused('rename to a reserved name in another letter case', 'PATCH', `/api/resources/alice/report.pdf?action=rename&destination=${q('/alice/.FileDeck-Trash')}`),
      refused('rename into a reserved folder name at any depth', 'PATCH', `/api/resources/alice/report.pdf?action=rename&destination=${q('/alice/.filedeck-x/inside.pdf')}`),
      refused('copy to a temp-like name', 'PATCH', `/api/resources/alice/report.pdf?action=copy&destination=${q(`/alice/${TEMP_LIKE}`)}`),
      refused('upload under a temp-like name', 'POST', `/api/resources/alice/${TEMP_LIKE}`, { raw: 'x' }),
      refused('upload with override under a temp-like name', 'POST', `/api/resources/alice/${TEMP_LIKE}?override=true`, { raw: 'x' }),
      refused('new folder with a reserved name', 'POST', '/api/resources/alice/.filedeck-dir/'),
      refused('upload into a reserved folder name', 'POST', '/api/resources/alice/.filedeck-dir/below.txt', { raw: 'x' }),
      refused('tus creation under a temp-like name', 'POST', `/api/tus/alice/${TEMP_LIKE}`, { headers: { ...TUS, 'Upload-Length': '5' } }),
    ],
  );

  test('extraction: an archive entry or a destination with a reserved name is refused', async () => {
    const { admin } = await setup();
    const src = join(t.dir, 'tar-src');
    mkdirSync(join(src, 'ok/.FILEDECK-trash'), { recursive: true });
    writeFileSync(join(src, 'ok/.FILEDECK-trash/x.txt'), 'x');
    expect(spawnSync('tar', ['-cf', join(t.root, 'shared/in.tar'), '-C', src, 'ok']).status).toBe(0);
    writeFileSync(join(src, 'plain.txt'), 'p');
    expect(spawnSync('tar', ['-cf', join(t.root, 'shared/plain.tar'), '-C', src, 'plain.txt']).status).toBe(0);
    const bad = await waitJob(t, admin, (await startJob(t, admin, { kind: 'extract', items: ['/shared/in.tar'], destination: '/shared/out' })).id);
    expect([bad.state, bad.error]).toEqual(['failed', expect.stringContaining('reserved name')]);
    const into = await waitJob(t, admin, (await startJob(t, admin, { kind: 'extract', items: ['/shared/plain.tar'], destination: '/shared/.filedeck-out' })).id);
    expect(into.state).toBe('failed');
    expect(existsSync(join(t.root, 'shared/out')) || existsSync(join(t.root, 'shared/.filedeck-out'))).toBe(false);
  });

  test('restore: an item cannot come back under a reserved name; it stays in the trash', async () => {
    const { admin } = await setup();
    writeFileSync(join(t.root, 'shared/.filedeck-legacy.txt'), 'made outside the server'); // e.g. before this check
    const id = (await t.req('DELETE', '/api/resources/shared/.filedeck-legacy.txt', { token: admin })).headers.get('x-trash-id')!;
    expect(id).toBeTruthy();
    const r = await t.req('POST', `/api/trash/${id}/restore`, { token: admin });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('reserved name');
    expect(((await (await t.req('GET', '/api/trash', { token: admin })).json()).items as { id: string }[]).map((i) => i.id)).toEqual([id]);
  });
});

describe('the sweep removes only what the server made', () => {
  test('a user file named like a temp (even with a forged proof) is never swept; the server\'s own dead temp is', async () => {
    const { admin } = await setup();
    const old = Date.now() / 1000 - 3600;
    const lookalikes = [TEMP_LIKE, `.filedeck-${'A'.repeat(16)}${'b'.repeat(22)}.part`].map((n) => join(t.root, 'shared/alice', n));
    for (const p of lookalikes) {
      writeFileSync(p, 'a user file');
      utimesSync(p, old, old);
    }
    // A temp the server really made and left behind (an upload cut off): the next sweep removes it.
    const made = await t.req('POST', '/api/tus/shared/up.bin', { token: admin, headers: { ...TUS, 'Upload-Length': '9' } });
    expect(made.status).toBe(201);
    const ours = readdirSync(join(t.root, 'shared')).filter((n) => n.startsWith('.filedeck-')).map((n) => join(t.root, 'shared', n));
    expect(ours).toHaveLength(1);
    expect((await t.req('DELETE', '/api/tus/shared/up.bin', { token: admin, headers: TUS })).status).toBe(204);
    writeFileSync(ours[0]!, 'left behind'); // as a crash between the row's removal and the file's would leave it
    utimesSync(ours[0]!, old, old);
    const r = await new TempSweep({ root: t.root, cacheDir: t.s.config.cacheDir, tus: t.s.tus, floorMs: 3_000 }).run();
    expect(r.temps).toBe(1);
    expect(existsSync(ours[0]!)).toBe(false);
    for (const p of lookalikes) expect(existsSync(p)).toBe(true);
  });
});
