import { afterAll, expect, test } from 'bun:test';
import { configureClient } from '../../web/api/client';
import { streamSearch, type SearchHit } from '../../web/api/search';

// A server that sends a broad query's results as one big write: many pieces of 64 KB reach the client together.
const lines = Array.from({ length: 40_000 }, (_, i) => `${JSON.stringify({ dir: false, path: `folder-${i % 97}/report-${i}.txt` })}\n`).join('');
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(lines, { headers: { 'Content-Type': 'application/x-ndjson' } }) });
afterAll(() => server.stop(true));

test('an aborted search parses nothing more of what it has received', async () => {
  configureClient(`http://127.0.0.1:${server.port}`, { token: () => '', renewRequested: () => {}, unauthorized: () => {} });
  const controller = new AbortController();
  const batches: SearchHit[][] = [];
  const run = streamSearch('/', 'report', controller.signal, (hits) => {
    batches.push(hits);
    controller.abort(); // a newer search started
  });
  await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  expect(batches.length).toBe(1);
  expect(batches[0]!.length).toBeGreaterThan(0);
  expect(batches[0]!.length).toBeLessThan(40_000);
});
