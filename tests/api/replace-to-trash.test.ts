import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * One delete sequence (trash.service.ts dispose and keeper): whatever an override replaces (upload, save, tus,
 * copy, move, a tree replaced by a file, a restore over an item) goes to the trash like a deleted item, with its
 * audit entry and the delete hooks, and can be restored. With versions off: with them on (the default) a replaced
 * file becomes a version instead (tests/api/versions.test.ts).
 */
const VERSIONS_OFF = { versions: { enabled: false } };
let t: TestApp;
afterEach(() => t?.close());

const TUS = { 'Tus-Resumable': '1.0.0' };

/** bob (scope /bob, every permission) with docs/a.txt ("old bytes") and docs/b.txt ("incoming"). */
async function setup(flags: Record<string, unknown> = {}) {
  t = await makeTestApp(flags, VERSIONS_OFF);
  mkdirSync(join(t.root, 'bob/docs'), { recursive: true });
  writeFileSync(join(t.root, 'bob/docs/a.txt'), 'old bytes');
  writeFileSync(join(t.root, 'bob/docs/b.txt'), 'incoming');
  return t.userToken('bob', { create: true, modify: true, delete: true, rename: true, download: true }, { scope: '/bob' });
}

type Item = { id: string; name: string; originalPath: string; isDir: boolean };
const trashItems = async (token: string) => ((await (await t.req('GET', '/api/trash', { token })).json()) as { items: Item[] }).items;
const slot = (item: Item) => join(t.root, '.filedeck-trash', '2', item.id, item.name);
const deletes = async () => (await t.s.audit.list({ action: 'file.delete' })).entries;

/** After a replace of /docs/a.txt: its old bytes are one trash item with an audit entry, and it can be restored. */
async function oldBytesKept(bob: string, now: string) {
  expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe(now);
  const items = await trashItems(bob);
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ name: 'a.txt', originalPath: '/docs/a.txt', isDir: false });
  expect(readFileSync(slot(items[0]!), 'utf8')).toBe('old bytes');
  const audit = await deletes();
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({ userName: 'bob', target: '/docs/a.txt', detail: { trash: items[0]!.id, replaced: true } });
  const back = await t.req('POST', `/api/trash/${items[0]!.id}/restore?conflict=rename`, { token: bob });
  expect(await back.json()).toEqual({ path: '/docs/a(1).txt' });
  expect(readFileSync(join(t.root, 'bob/docs/a(1).txt'), 'utf8')).toBe('old bytes');
}

describe('a replaced file goes to the trash', () => {
  test('upload with override', async () => {
    const bob = await setup();
    expect((await t.req('POST', '/api/resources/docs/a.txt?override=true', { token: bob, raw: 'new bytes' })).status).toBe(200);
    await oldBytesKept(bob, 'new bytes');
  });

  test('save (PUT)', async () => {
    const bob = await setup();
    expect((await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'edited' })).status).toBe(200);
    await oldBytesKept(bob, 'edited');
  });

  test('a tus upload with override', async () => {
    const bob = await setup();
    const made = await t.req('POST', '/api/tus/docs/a.txt?override=true', { token: bob, headers: { ...TUS, 'Upload-Length': '5' } });
    expect(made.status).toBe(201);
    const patch = await t.req('PATCH', '/api/tus/docs/a.txt', { token: bob, headers: { ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, raw: 'fresh' });
    expect(patch.status).toBe(204);
    await oldBytesKept(bob, 'fresh');
  });

  test('copy over it with override', async () => {
    const bob = await setup();
    expect((await t.req('PATCH', `/api/resources/docs/b.txt?action=copy&destination=${encodeURIComponent('/docs/a.txt')}&override=true`, { token: bob })).status).toBe(200);
    await oldBytesKept(bob, 'incoming');
    expect(readFileSync(join(t.root, 'bob/docs/b.txt'), 'utf8')).toBe('incoming');
  });

  test('move over it with override', async () => {
    const bob = await setup();
    expect((await t.req('PATCH', `/api/resources/docs/b.txt?action=rename&destination=${encodeURIComponent('/docs/a.txt')}&override=true`, { token: bob })).status).toBe(200);
    await oldBytesKept(bob, 'incoming');
    expect(existsSync(join(t.root, 'bob/docs/b.txt'))).toBe(false);
  });

  test('a colliding file of a folder merge', async () => {
    const bob = await setup();
    mkdirSync(join(t.root, 'bob/src/docs'), { recursive: true });
    writeFileSync(join(t.root, 'bob/src/docs/a.txt'), 'merged in');
    expect((await t.req('PATCH', `/api/resources/src/docs?action=copy&destination=${encodeURIComponent('/docs')}&override=true`, { token: bob })).status).toBe(200);
    await oldBytesKept(bob, 'merged in');
  });

  test('a folder replaced by a file goes to the trash whole, with its links', async () => {
    const bob = await setup();
    mkdirSync(join(t.root, 'bob/tree/sub'), { recursive: true });
    writeFileSync(join(t.root, 'bob/tree/sub/deep.txt'), 'deep bytes');
    expect((await t.req('PATCH', `/api/resources/docs/b.txt?action=copy&destination=${encodeURIComponent('/tree')}&override=true`, { token: bob })).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/tree'), 'utf8')).toBe('incoming');
    const items = await trashItems(bob);
    expect(items).toMatchObject([{ name: 'tree', originalPath: '/tree', isDir: true }]);
    expect(readFileSync(join(slot(items[0]!), 'sub/deep.txt'), 'utf8')).toBe('deep bytes');
    expect((await deletes())[0]).toMatchObject({ target: '/tree', detail: { trash: items[0]!.id, replacedBy: 'copy' } });
  });

  test('a restore over an item: what was there goes to the trash first', async () => {
    const bob = await setup();
    const id = (await t.req('DELETE', '/api/resources/docs/a.txt', { token: bob })).headers.get('x-trash-id')!;
    writeFileSync(join(t.root, 'bob/docs/a.txt'), 'written since');
    expect((await t.req('POST', `/api/trash/${id}/restore?conflict=replace`, { token: bob })).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('old bytes');
    const items = await trashItems(bob);
    expect(items).toHaveLength(1);
    expect(readFileSync(slot(items[0]!), 'utf8')).toBe('written since');
    expect((await deletes()).map((e) => e.detail.trash)).toEqual([items[0]!.id, id]);
  });

  test('with the trash off the replace is recorded (audit) and nothing is kept', async () => {
    const bob = await setup();
    await t.s.settings.update({ trash: { ...t.s.settings.get().trash, enabled: false } }, ['trash']);
    expect((await t.req('POST', '/api/resources/docs/a.txt?override=true', { token: bob, raw: 'new bytes' })).status).toBe(200);
    expect(await trashItems(bob)).toEqual([]);
    expect((await deletes())[0]).toMatchObject({ target: '/docs/a.txt', detail: { replaced: true } });
  });
});

describe('the delete hooks fire for a replace', () => {
  test('a failing before_delete refuses the override and keeps the old file; after_delete runs', async () => {
    t = await makeTestApp({ enableExec: 'true', commandTimeout: '5s' });
    if (!t.s.runner.enabled) return; // no usable sandbox here: hooks are off (sandbox.test.ts covers that)
    mkdirSync(join(t.root, 'in'), { recursive: true });
    writeFileSync(join(t.root, 'in/a.txt'), 'old bytes');
    await t.s.settings.update({ commands: { before_delete: ['false'] } }, ['commands']);
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const refused = await t.req('POST', '/api/resources/in/a.txt?override=true', { token: admin, raw: 'new bytes' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('before_delete');
    expect(readFileSync(join(t.root, 'in/a.txt'), 'utf8')).toBe('old bytes');
    expect((await t.s.audit.list({ action: 'file.delete' })).entries).toEqual([]);
    await t.s.settings.update({ commands: { before_delete: [], after_delete: [`sh -c 'echo "$TRIGGER $FILE" >> hook.log'`] } }, ['commands']);
    // A change of commands ends every session: log in again.
    const ok = await t.req('POST', '/api/resources/in/a.txt?override=true', { token: await t.login('admin', ADMIN_PASSWORD), raw: 'new bytes' });
    expect({ status: ok.status, text: await ok.text() }).toMatchObject({ status: 200 });
    expect(readFileSync(join(t.root, 'hook.log'), 'utf8')).toContain('after_delete');
    expect(readFileSync(join(t.root, 'hook.log'), 'utf8')).toContain('/in/a.txt');
  });
});
