import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, startJob, tempsUnder, waitJob } from '../helpers/jobs-fixture';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

// Whether a write may replace what is at its name is decided when the name is taken (tus completion, an
// archive-to-file job's commit), with the writer's rights as of then: services/files/commit-decision.ts.
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const OCTET = { 'Content-Type': 'application/offset+octet-stream' };
const setPerm = async (admin: string, id: number, perm: Record<string, boolean>) => {
  const r = await t.req('PUT', `/api/users/${id}`, { token: admin, body: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id, perm: { ...(await t.s.users.find(String(id))).perm, ...perm } } } });
  expect(r.status).toBe(200);
};

test('tus: an upload created with override=true to a free name, by a user without modify, cannot replace the file someone wrote meanwhile', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  const bob = await t.userToken('bob', { create: true, modify: false });
  // Free when created: accepted, override and all (nothing to replace yet).
  expect((await t.req('POST', '/api/tus/shared.txt?override=true', { token: bob, headers: { 'Upload-Length': '4' } })).status).toBe(201);
  // Someone else writes the name meanwhile (and may link it publicly).
  expect((await t.req('POST', '/api/resources/shared.txt', { token: admin, raw: 'mine' })).status).toBe(200);
  const done = await t.req('PATCH', '/api/tus/shared.txt', { token: bob, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'evil' });
  expect(done.status).toBe(403);
  expect(await done.text()).toContain('modify');
  expect(readFileSync(join(t.root, 'shared.txt'), 'utf8')).toBe('mine');
  expect(tempsUnder(t.root)).toEqual([]); // nothing written, nothing left
  expect((await t.req('HEAD', '/api/tus/shared.txt', { token: bob })).status).toBe(404);
}, 30_000);

test('tus: modify taken away before the last byte: the replace is refused at completion', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  const bob = await t.userToken('bob', { create: true, modify: true });
  writeFileSync(join(t.root, 'report.txt'), 'original');
  expect((await t.req('POST', '/api/tus/report.txt?override=true', { token: bob, headers: { 'Upload-Length': '8' } })).status).toBe(201);
  expect((await t.req('PATCH', '/api/tus/report.txt', { token: bob, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'new ' })).status).toBe(204);
  await setPerm(admin, 2, { modify: false });
  const bob2 = await t.login('bob', 'bobs-long-password-4410'); // the permission change ended bob's sessions
  const last = await t.req('PATCH', '/api/tus/report.txt', { token: bob2, headers: { ...OCTET, 'Upload-Offset': '4' }, raw: 'data' });
  expect(last.status).toBe(403);
  expect(readFileSync(join(t.root, 'report.txt'), 'utf8')).toBe('original');
  expect(tempsUnder(t.root)).toEqual([]);
}, 30_000);

test('tus: with modify, an override upload still replaces (the decision is made, not refused)', async () => {
  t = await makeTestApp();
  const bob = await t.userToken('bob', { create: true, modify: true });
  expect((await t.req('POST', '/api/tus/r.txt?override=true', { token: bob, headers: { 'Upload-Length': '3' } })).status).toBe(201);
  writeFileSync(join(t.root, 'r.txt'), 'old');
  expect((await t.req('PATCH', '/api/tus/r.txt', { token: bob, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'new' })).status).toBe(204);
  expect(readFileSync(join(t.root, 'r.txt'), 'utf8')).toBe('new');
  // Without override a name taken meanwhile is a 409, as before.
  expect((await t.req('POST', '/api/tus/s.txt', { token: bob, headers: { 'Upload-Length': '3' } })).status).toBe(201);
  writeFileSync(join(t.root, 's.txt'), 'old');
  expect((await t.req('PATCH', '/api/tus/s.txt', { token: bob, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'new' })).status).toBe(409);
  expect(readFileSync(join(t.root, 's.txt'), 'utf8')).toBe('old');
}, 30_000);

test('archive-to-file job with conflict=replace, by a user without modify: a file written at its name while it ran is not replaced', async () => {
  t = await makeTestApp();
  const bob = await t.userToken('bob', { create: true, modify: false });
  mkdirSync(join(t.root, 'docs'));
  writeFileSync(join(t.root, 'docs/a.txt'), 'alpha');
  mkdirSync(join(t.root, 'out'));
  const dst = join(t.root, 'out/docs.zip');
  const job = await startJob(t, bob, { kind: 'archive', items: ['/docs'], destination: '/out', name: 'docs.zip', conflict: 'replace' });
  // The name is free when the job looks; someone writes it the moment the job starts writing its temp (the job's
  // temp report: the same point before and after the fix), long before the archive is claimed.
  const live = (t.s.jobs as unknown as { live: Map<number, { temp: string }> }).live.get(job.id)!;
  let temp = '';
  Object.defineProperty(live, 'temp', {
    get: () => temp,
    set: (v: string) => {
      if (v && !existsSync(dst)) writeFileSync(dst, 'theirs');
      temp = v;
    },
  });
  const end = await waitJob(t, bob, job.id);
  expect(end.state).toBe('failed');
  expect(end.error).toContain('modify');
  expect(readFileSync(dst, 'utf8')).toBe('theirs');
  expect(tempsUnder(t.root)).toEqual([]);
}, 30_000);

test('POST /api/resources with override=true, by a user without modify: a file written at the name while the body streams is not replaced', async () => {
  t = await makeTestApp();
  const bob = await t.userToken('bob', { create: true, modify: false });
  const target = join(t.root, 'late.txt');
  let pulls = 0;
  // The second pull comes once the server has read the first chunk (the name was free when it looked): someone
  // writes the name then, and the body ends.
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (++pulls === 1) c.enqueue(new TextEncoder().encode('evil'));
      else {
        writeFileSync(target, 'theirs');
        c.close();
      }
    },
  });
  const r = await t.req('POST', '/api/resources/late.txt?override=true', { token: bob, raw: body });
  expect(r.status).toBe(409);
  expect(readFileSync(target, 'utf8')).toBe('theirs');
  expect(tempsUnder(t.root)).toEqual([]);
}, 30_000);

test('extraction: create taken away while the archive is being unpacked: its folder is not claimed', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  const bob = await t.userToken('bob', { create: true });
  makeTree(join(t.root, 'src'), 1500, 16);
  expect(Bun.spawnSync(['tar', 'cf', '../big.tar', '.'], { cwd: join(t.root, 'src') }).exitCode).toBe(0);
  const job = await startJob(t, bob, { kind: 'extract', items: ['/big.tar'], destination: '/unpacked' });
  // The moment the job makes its staging folder (the same point before and after the fix), the admin takes create away.
  const live = (t.s.jobs as unknown as { live: Map<number, { temp: string }> }).live.get(job.id)!;
  let temp = '';
  let revoking: Promise<Response> | null = null;
  Object.defineProperty(live, 'temp', {
    get: () => temp,
    set: (v: string) => {
      temp = v;
      revoking ??= (async () => {
        const perm = { ...(await t.s.users.find('bob')).perm, create: false };
        return t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id: 2, perm } } });
      })();
    },
  });
  const end = await waitJob(t, admin, job.id); // bob's sessions ended with the change
  expect((await revoking!).status).toBe(200);
  expect(end.state).toBe('failed');
  expect(end.error).toContain('create');
  expect(existsSync(join(t.root, 'unpacked'))).toBe(false);
  expect(tempsUnder(t.root)).toEqual([]);
}, 30_000);
