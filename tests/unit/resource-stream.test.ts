import { afterAll, expect, test } from 'bun:test';
import { configureClient } from '../../web/api/client';
import { fetchResourceStreamed } from '../../web/api/resource-stream';

// A big folder's listing sent in one write: many pieces of 64 KB reach the client together.
const item = (i: number) => ({ path: `/big/file-${i}.txt`, name: `file-${i}.txt`, size: i, extension: '.txt', modified: '2026-11-29T00:00:00.000Z', mode: 420, isDir: false, isSymlink: false, type: 'text' });
const body = JSON.stringify({ path: '/big', name: 'big', size: 4096, extension: '', modified: '2026-11-29T00:00:00.000Z', mode: 2147484141, isDir: true, isSymlink: false, type: '', items: Array.from({ length: 20_000 }, (_, i) => item(i)), numDirs: 0, numFiles: 20_000, sorting: { by: 'name', asc: false } });
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(body, { headers: { 'Content-Type': 'application/json' } }) });
afterAll(() => server.stop(true));

test('a listing aborted by a newer navigation parses nothing more of what it has received', async () => {
  configureClient(`http://127.0.0.1:${server.port}`, { token: () => '', renewRequested: () => {}, unauthorized: () => {} });
  const controller = new AbortController();
  const parse = JSON.parse;
  let parsedAfterAbort = 0;
  JSON.parse = ((...a: Parameters<typeof JSON.parse>) => {
    if (controller.signal.aborted) parsedAfterAbort++;
    return parse(...a);
  }) as typeof JSON.parse;
  try {
    const run = fetchResourceStreamed('/big/', controller.signal, (partial) => {
      expect(partial.items!.length).toBeLessThan(20_000);
      controller.abort(); // the user opened another folder
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  } finally {
    JSON.parse = parse;
  }
  expect(parsedAfterAbort).toBe(0);
});
