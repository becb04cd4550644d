import { describe, expect, test } from 'bun:test';
import { rawPath, urlPath } from '../../server/http/request-path';

// urlPath reads a request's path off its URL text when URL parsing could change nothing, and parses otherwise: it
// must equal `new URL(url).pathname` for every input, whatever tricks the path holds.
describe('urlPath', () => {
  const same = (u: string) => expect({ u, path: urlPath(u) }).toEqual({ u, path: new URL(u).pathname });

  test('equals URL parsing on dot segments (also encoded), backslashes, odd characters, odd hosts', () => {
    const origins = ['http://127.0.0.1:8080', 'http://localhost', 'https://[::1]:443', 'http://a\\b', 'http://user@host', 'http://h'];
    const paths = ['/', '/api/resources/small/', '/api/resources/a/../b', '/api/resources/a/%2e%2e/b', '/api/resources/a/%2E/b', '/api/resources/.config/',
      '/api/resources/a b/', '/api/resources/%41%zz', '/api/resources/x\\y', '/api/resources/ü/', '/api/resources/a?x=1', '/api/resources/a#f',
      '/api/resources//x', '/api/resources/a/./b', "/api/resources/it's(1)/", '/api/resources/{x}', '/api/resources/a"b', '/api/resources/%2F/',
      '/api/resources/..', '/api/resources/.', '/api/resources/a/b?c/../d', '/api/resources/~x/@y:z;w=v,u+t!s$r&q*'];
    for (const o of origins) for (const p of paths) same(o + p);
  });

  test('equals URL parsing on 50,000 random paths of the characters that matter', () => {
    const chars = 'aZ09-._~!$&\'()*+,;=:@/%2eE.\\ ?#"<>`{}üé\t';
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    for (let i = 0; i < 50_000; i++) {
      let p = '/';
      for (let j = rnd(12); j > 0; j--) p += chars[rnd(chars.length)];
      const u = `http://127.0.0.1:8080${p}`;
      if (urlPath(u) !== new URL(u).pathname) same(u);
    }
  });

  test('rawPath is the text up to "?" or "#"', () => {
    expect(rawPath('http://h:1/a/b?c#d')).toBe('/a/b');
    expect(rawPath('http://h:1/a#d?c')).toBe('/a');
    expect(rawPath('http://h:1')).toBe('/');
  });
});
