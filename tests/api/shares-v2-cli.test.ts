import { afterEach, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/binary';
import { cliJson, cliRefused } from '../helpers/cli-expect';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/** `filedeck shares update` with the shares v2 flags, and `filedeck shares log` (decision 0051), on the app's database. */
let t: TestApp;
afterEach(() => t?.close());

interface CliShare { hash: string; mode: string; slug: string; disabled: boolean; maxDownloads: number; upload: Record<string, unknown>; webhookUrl: string }

test('shares update: mode, slug, limits, types, webhook, disable/enable, regenerate; shares log', async () => {
  t = await makeTestApp();
  mkdirSync(join(t.root, 'bob/inbox'), { recursive: true });
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const { hash } = (await (await t.req('POST', '/api/share/inbox/', { token: bob, body: {} })).json()) as { hash: string };
  const fd = (...args: string[]) => cli(['-d', t.database, '-r', t.root, ...args]);
  const set = await cliJson<CliShare>(fd('shares', 'update', hash, '--mode', 'upload', '--slug', 'Drop-Box', '--max-file-size', '1M', '--max-total', '10M', '--max-files', '5',
    '--types', '.pdf, image/*', '--max-downloads', '3', '--webhook', 'https://hooks.example.com/x', '--disable', '--json'));
  expect(set).toMatchObject({ hash, mode: 'upload', slug: 'drop-box', disabled: true, maxDownloads: 3, webhookUrl: 'https://hooks.example.com/x',
    upload: { maxFileSize: 1_000_000, maxTotalSize: 10_000_000, maxFiles: 5, allowedTypes: ['.pdf', 'image/*'] } });
  // By slug; --no-slug, --enable, --webhook "" remove.
  const cleared = await cliJson<CliShare>(fd('shares', 'update', 'drop-box', '--no-slug', '--enable', '--webhook', '', '--types', '', '--json'));
  expect(cleared).toMatchObject({ hash, slug: '', disabled: false, webhookUrl: '', upload: { allowedTypes: [] } });
  await cliRefused(fd('shares', 'update', hash, '--mode', 'write'), 'mode must be');
  await cliRefused(fd('shares', 'update', hash, '--slug', 'api'), 'reserved');
  await cliRefused(fd('shares', 'update', hash, '--disable', '--enable'), 'together');
  await cliRefused(fd('shares', 'update', hash, '--max-files', 'many'), 'whole number');
  // A visitor's upload, then the log.
  expect((await t.req('POST', `/api/public/upload/${hash}/a.pdf`, { raw: '%PDF' })).status).toBe(201);
  const log = await cliJson<{ kind: string; path: string; bytes: number }[]>(fd('shares', 'log', hash, '--json'));
  expect(log.map((l) => [l.kind, l.path])).toEqual([['upload', '/a.pdf']]);
  expect((await fd('shares', 'log', hash)).stdout).toContain('/a.pdf');
  // Regenerate: a new hash, the old one ends.
  const fresh = await cliJson<CliShare>(fd('shares', 'update', hash, '--regenerate', '--json'));
  expect(fresh.hash).not.toBe(hash);
  expect((await t.req('POST', `/api/public/upload/${hash}/b.pdf`, { raw: '%PDF' })).status).toBe(404);
  expect((await t.req('POST', `/api/public/upload/${fresh.hash}/b.pdf`, { raw: '%PDF' })).status).toBe(201);
}, 60_000);
