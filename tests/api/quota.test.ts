import { expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { treeUsage } from '../../server/fs/tree-usage';
import { systemActor } from '../../server/services/actor';
import { dest, put } from '../helpers/files-fixture';
import { startJob, tempsUnder, waitJob } from '../helpers/jobs-fixture';
import { runScenarios, type Scenario } from '../helpers/scenario';
import type { TestApp } from '../helpers/test-app';

// Quotas (issue 35, decision 0049): every write path into a full quota's scope is refused with 507 naming the quota
// and its usage, whoever writes, and leaves the disk exactly as it was (no temp, no half-made folder). Runs on
// SQLite, and on PostgreSQL with FILEDECK_TEST_PG.

const TUS = { 'Tus-Resumable': '1.0.0' };

/**
 * bob (scope /bob) with a quota of exactly what his scope holds: nothing more fits. An archive inside it to extract,
 * and files outside it that the admin tries to bring in.
 */
async function fullBob(t: TestApp): Promise<Record<string, string>> {
  put(t.root, { 'bob/a.txt': 'a'.repeat(60), 'bob/dir/b.txt': 'b'.repeat(30), 'bob/mk/x.txt': 'x'.repeat(40), 'outside.txt': 'o'.repeat(10), 'outdir/c.txt': 'c'.repeat(5) });
  const zipped = Bun.spawnSync(['zip', '-qr', '../arch.zip', '.'], { cwd: join(t.root, 'bob', 'mk') });
  if (zipped.exitCode !== 0) throw new Error('zip failed');
  const bob = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 1_000_000, files: 0 } });
  // One save keeps the old a.txt as a version (to restore below); then the quota is set to exactly what is stored.
  if ((await t.req('PUT', '/api/resources/a.txt', { token: bob, raw: 'A'.repeat(60) })).status !== 200) throw new Error('save failed');
  const version = ((await (await t.req('GET', '/api/versions/a.txt', { token: bob })).json()) as { id: string }[])[0]!.id;
  const user = (await t.s.stores.users.byUsername('bob'))!;
  const used = await t.s.quota.usage(user);
  if (used.bytes !== (await treeUsage(join(t.root, 'bob'))).bytes + 60) throw new Error(`usage ${used.bytes}`);
  await t.s.users.update(systemActor, user.id, ['quota'], { quota: { bytes: used.bytes, files: 0 } });
  return { bob, version };
}

/** Reservations left in the database (none may outlive the request that took them). */
const reservations = async (t: TestApp) => (await t.s.db.all<{ id: string }>('SELECT id FROM quota_reservations')).length;

const refused = (row: Omit<Scenario, 'status' | 'disk'>): Scenario => ({
  status: 507,
  contains: 'quota of bob',
  disk: { under: '', after: 'same' },
  ...row,
  after: async (t, res, text, bytes, v) => {
    await row.after?.(t, res, text, bytes, v);
    expect(tempsUnder(t.root)).toEqual([]);
    expect(await reservations(t)).toBe(0);
  },
});

/** A job (copy or extract) ends failed with the quota's message and changes nothing. */
const jobRefused = (name: string, as: string, body: Record<string, unknown>): Scenario => ({
  name,
  as,
  method: 'GET',
  url: '/api/jobs',
  status: 200,
  disk: { under: '', after: 'same' },
  before: async (t, v) => {
    const token = as === 'admin' ? await t.adminToken() : v[as]!;
    const job = await waitJob(t, token, (await startJob(t, token, body)).id);
    expect([job.state, job.error]).toEqual(['failed', expect.stringContaining('quota of bob')]);
  },
  after: async (t) => {
    expect(tempsUnder(t.root)).toEqual([]);
    expect(await reservations(t)).toBe(0);
  },
});

runScenarios('a full quota refuses every write path', fullBob, [
  refused({ name: 'upload of a new file', as: 'bob', method: 'POST', url: '/api/resources/new.txt', raw: 'n' }),
  refused({ name: 'upload of an empty file', as: 'bob', method: 'POST', url: '/api/resources/empty.txt', raw: '' }),
  refused({ name: 'upload replacing a file with a smaller one (the old one is kept: a version)', as: 'bob', method: 'POST', url: '/api/resources/a.txt?override=true', raw: 'z'.repeat(10) }),
  refused({ name: 'editor save (PUT)', as: 'bob', method: 'PUT', url: '/api/resources/a.txt', raw: 'z'.repeat(10) }),
  refused({ name: 'new folder', as: 'bob', method: 'POST', url: '/api/resources/newdir/' }),
  refused({ name: 'copy of a file', as: 'bob', method: 'PATCH', url: `/api/resources/a.txt?action=copy&destination=${dest('/a2.txt')}` }),
  refused({ name: 'copy of a folder', as: 'bob', method: 'PATCH', url: `/api/resources/dir?action=copy&destination=${dest('/dir2')}` }),
  refused({ name: 'tus creation (Upload-Length reserved before the first byte)', as: 'bob', method: 'POST', url: '/api/tus/up.bin', headers: { ...TUS, 'Upload-Length': '5' } }),
  refused({ name: 'tus creation of an empty file', as: 'bob', method: 'POST', url: '/api/tus/up0.bin', headers: { ...TUS, 'Upload-Length': '0' } }),
  refused({ name: 'the admin uploading into bob\'s scope', as: 'admin', method: 'POST', url: '/api/resources/bob/adm.txt', raw: 'n' }),
  refused({ name: 'the admin moving a file in from outside', as: 'admin', method: 'PATCH', url: `/api/resources/outside.txt?action=rename&destination=${dest('/bob/outside.txt')}` }),
  refused({ name: 'the admin copying a folder in', as: 'admin', method: 'PATCH', url: `/api/resources/outdir?action=copy&destination=${dest('/bob/outdir')}` }),
  refused({ name: 'restore of a version (the current content would become one)', as: 'bob', method: 'POST', url: (_t, v) => `/api/versions/a.txt?version=${v.version}&action=restore` }),
  jobRefused('extraction job', 'bob', { kind: 'extract', items: ['/arch.zip'], destination: '/unpacked' }),
  jobRefused('copy job of the admin into bob\'s scope', 'admin', { kind: 'copy', items: ['/outdir'], destination: '/bob' }),
  refused({ name: 'the admin restoring from their trash into bob\'s scope', as: 'admin', method: 'POST', url: (_t, v) => `/api/trash/${v.item}/restore?conflict=rename`, before: async (t, v) => {
    // The admin deletes a file of bob's (into the admin's trash: bob has room again), bob fills the room, and the
    // restore would land under bob's full quota, which has not counted it (it is the admin's trash).
    const token = await t.adminToken();
    expect((await t.req('DELETE', '/api/resources/bob/dir/b.txt', { token })).status).toBe(204);
    expect((await t.req('POST', '/api/resources/dir/b.txt', { token: v.bob, raw: 'B'.repeat(30) })).status).toBe(200);
    const items = (await (await t.req('GET', '/api/trash', { token })).json()).items as { id: string }[];
    v.item = items[0]!.id;
  } }),
], { shared: true, timeout: 30_000 });

test('what a full quota still allows: rename, move within, delete, restore of its own trash, read', async () => {
  const { makeTestApp } = await import('../helpers/test-app');
  const t = await makeTestApp();
  try {
    const { bob: token } = await fullBob(t);
    const ok = async (method: string, url: string, status = 200) => expect((await t.req(method, url, { token })).status).toBe(status);
    await ok('PATCH', `/api/resources/a.txt?action=rename&destination=${dest('/ren.txt')}`);
    await ok('PATCH', `/api/resources/ren.txt?action=rename&destination=${dest('/dir/ren.txt')}`);
    await ok('DELETE', '/api/resources/dir/ren.txt', 204);
    // Deleted into his trash it still counts: nothing new fits.
    expect((await t.req('POST', '/api/resources/n.txt', { token, raw: 'n' })).status).toBe(507);
    const items = (await (await t.req('GET', '/api/trash', { token })).json()).items as { id: string }[];
    await ok('POST', `/api/trash/${items[0]!.id}/restore`);
    await ok('GET', '/api/resources/dir/ren.txt');
    expect(readdirSync(join(t.root, 'bob', 'dir')).sort()).toEqual(['b.txt', 'ren.txt']);
    // Deleted for good it no longer counts: room again.
    await ok('DELETE', '/api/resources/dir/ren.txt?permanent=true', 204);
    await ok('POST', '/api/resources/n.txt');
    expect(await reservations(t)).toBe(0);
  } finally {
    await t.close();
  }
}, 30_000);
