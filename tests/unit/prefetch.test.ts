import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { PREFETCH_KEY, settlePrefetch, takePrefetched, type ListingPrefetch } from '../../web/api/prefetch';

// web/api/prefetch.ts: who may use the early listing request of web/boot/listing-prefetch.ts, and for which URL.
const g = globalThis as unknown as Record<string, unknown>;

const hadLocation = 'location' in globalThis;
beforeAll(() => {
  if (!hadLocation) g.location = new URL('http://127.0.0.1:8080/files/');
});
afterAll(() => {
  if (!hadLocation) delete g.location;
});

function plant(url: string, token = 'tok-a'): ListingPrefetch {
  const controller = new AbortController();
  const p: ListingPrefetch = { url, token, response: Promise.resolve(new Response('{}')), controller };
  g[PREFETCH_KEY] = p;
  return p;
}

afterEach(() => {
  g[PREFETCH_KEY] = undefined;
});

describe('the early listing request', () => {
  test('used once, for the same path, by a session started from its token', () => {
    const p = plant('/api/resources/Docs/');
    settlePrefetch('tok-a');
    expect(takePrefetched('/api/resources/Docs/')).toBe(p.response);
    expect(takePrefetched('/api/resources/Docs/')).toBeNull();
    expect(p.controller.signal.aborted).toBe(false);
  });

  test('two spellings of one path match: percent-encoding, a trailing slash, a base path', () => {
    for (const [sent, asked] of [
      ['/api/resources/%C3%9Cn%C3%AF%20(1)%20%23x%26y/', '/api/resources/%C3%9Cn%C3%AF%20(1)%20%23x%26y/'],
      ['/api/resources/a%20b/', '/api/resources/a b'],
      ['/deck/api/resources/x/', '/deck/api/resources/x'],
      ['/api/resources/%28x%29/', '/api/resources/(x)/'],
    ]) {
      const p = plant(sent!);
      settlePrefetch('tok-a');
      expect(takePrefetched(asked!)).toBe(p.response);
    }
  });

  test('a session from another token (or none) cancels it; nothing is handed out', () => {
    for (const token of ['tok-b', null]) {
      const p = plant('/api/resources/Docs/');
      settlePrefetch(token);
      expect(p.controller.signal.aborted).toBe(true);
      expect(takePrefetched('/api/resources/Docs/')).toBeNull();
    }
  });

  test('before the session has started, nothing is handed out (and the request is kept for it)', () => {
    const p = plant('/api/resources/Docs/');
    expect(takePrefetched('/api/resources/Docs/')).toBeNull();
    expect(p.controller.signal.aborted).toBe(false);
    settlePrefetch('tok-a');
    expect(takePrefetched('/api/resources/Docs/')).toBe(p.response);
  });

  test('another path: cancelled, and not handed out later either', () => {
    for (const other of ['/api/resources/Docs2/', '/api/resources/Docs/sub/', '/api/resources/', '/api/resources/%E0%A4%A/']) {
      const p = plant('/api/resources/Docs/');
      settlePrefetch('tok-a');
      expect(takePrefetched(other)).toBeNull();
      expect(p.controller.signal.aborted).toBe(true);
      expect(takePrefetched('/api/resources/Docs/')).toBeNull();
    }
  });

  test('the taker aborting cancels it, before or after it is taken', () => {
    const before = new AbortController();
    before.abort();
    const p1 = plant('/api/resources/Docs/');
    settlePrefetch('tok-a');
    takePrefetched('/api/resources/Docs/', before.signal);
    expect(p1.controller.signal.aborted).toBe(true);

    const after = new AbortController();
    const p2 = plant('/api/resources/Docs/');
    settlePrefetch('tok-a');
    takePrefetched('/api/resources/Docs/', after.signal);
    expect(p2.controller.signal.aborted).toBe(false);
    after.abort();
    expect(p2.controller.signal.aborted).toBe(true);
  });

  test('no early request at all: every call is a no-op', () => {
    settlePrefetch('tok-a');
    settlePrefetch(null);
    expect(takePrefetched('/api/resources/Docs/')).toBeNull();
  });
});
