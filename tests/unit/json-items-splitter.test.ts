import { describe, expect, test } from 'bun:test';
import { JsonItemsSplitter } from '../../web/api/json-items-splitter';

/** Feeds `text` in pieces cut at random places (seeded, so a failure repeats) and collects what comes out. */
function split(text: string, seed: number, maxPiece: number): { items: unknown[]; outer: unknown } {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const splitter = new JsonItemsSplitter();
  const items: unknown[] = [];
  for (let at = 0; at < text.length; ) {
    const n = 1 + Math.floor(rand() * maxPiece);
    for (const item of splitter.push(text.slice(at, at + n))) items.push(JSON.parse(item));
    at += n;
  }
  return { items, outer: JSON.parse(splitter.outer()) };
}

const tricky = [
  { name: 'plain.txt', isDir: false, size: 1 },
  { name: 'quote " and \\ backslash', isDir: false, size: 2 },
  { name: 'braces {[}] and, "items":[1]', isDir: true, size: 3 },
  { name: 'items', nested: { items: [{ a: 1 }], more: [[], {}] }, size: 4 },
  { name: 'unicode ✓ שלום \u0000 \\"', isDir: false, size: 5 },
];

describe('JsonItemsSplitter', () => {
  test('a folder cut anywhere gives back every item in order and the object without them', () => {
    const folder = { path: '/a "b"', name: 'items', label: 'items', items: tricky, numDirs: 1, numFiles: 4, sorting: { by: 'name', asc: false } };
    const text = JSON.stringify(folder);
    for (let seed = 1; seed <= 200; seed++) {
      const { items, outer } = split(text, seed, seed % 3 === 0 ? 3 : 40);
      expect(items).toEqual(tricky);
      expect(outer).toEqual({ ...folder, items: [] });
    }
  });

  test('keys before `items` that hold arrays, and a value "items", are not taken for the items', () => {
    const obj = { subtitles: [{ x: 1 }], kind: 'items', other: { items: [{ y: 2 }] }, items: [{ z: 3 }], tail: [{ w: 4 }] };
    for (let seed = 1; seed <= 50; seed++) {
      const { items, outer } = split(JSON.stringify(obj), seed, 7);
      expect(items).toEqual([{ z: 3 }]);
      expect(outer).toEqual({ ...obj, items: [] });
    }
  });

  test('while the items arrive, the text before them gives the folder\'s own fields', () => {
    const text = JSON.stringify({ path: '/p', name: 'p', items: tricky, numDirs: 1 });
    for (let cut = text.indexOf('[') + 1; cut < text.length - 20; cut += 7) {
      const splitter = new JsonItemsSplitter();
      splitter.push(text.slice(0, cut));
      expect(JSON.parse(`${splitter.beforeItems()}]}`)).toEqual({ path: '/p', name: 'p', items: [] });
    }
    // Also when the whole text came in one piece.
    const whole = new JsonItemsSplitter();
    whole.push(text);
    expect(JSON.parse(`${whole.beforeItems()}]}`)).toEqual({ path: '/p', name: 'p', items: [] });
    expect(new JsonItemsSplitter().beforeItems()).toBeNull();
  });

  test('a file (no items) and an empty folder come back whole', () => {
    const file = { path: '/f.txt', name: 'f.txt', isDir: false, content: 'a } ] { [ "items": [' };
    const s1 = new JsonItemsSplitter();
    expect(s1.push(JSON.stringify(file))).toEqual([]);
    expect(s1.hasItems).toBe(false);
    expect(JSON.parse(s1.outer())).toEqual(file);
    const empty = { path: '/e', items: [], numDirs: 0 };
    const { items, outer } = split(JSON.stringify(empty), 9, 2);
    expect(items).toEqual([]);
    expect(outer).toEqual(empty);
  });

  test("a text file's content of many escapes and no quote is read in one pass (each string body is searched once)", () => {
    // 2,000,000 escapes in one string, pushed as one piece: searching again for its closing quote at every escape would
    // read some 10^13 characters and run into the test's timeout (400,000 escapes already took 3.3 s that way).
    const file = { path: '/log.txt', name: 'log.txt', isDir: false, content: 'line\n\t'.repeat(1_000_000) };
    const s = new JsonItemsSplitter();
    expect(s.push(JSON.stringify(file))).toEqual([]);
    expect(JSON.parse(s.outer())).toEqual(file);
  });

  test('text cut short leaves an outer object that does not parse', () => {
    const text = JSON.stringify({ path: '/x', items: tricky, numDirs: 1 });
    const splitter = new JsonItemsSplitter();
    splitter.push(text.slice(0, text.indexOf('unicode')));
    expect(() => JSON.parse(splitter.outer())).toThrow();
  });

  test('memory held between pieces stays about one item, whatever the number of items', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ name: `file-${i}.txt`, size: i }));
    const text = JSON.stringify({ path: '/big', items: many, numFiles: many.length });
    const splitter = new JsonItemsSplitter();
    let count = 0;
    let held = 0;
    for (let at = 0; at < text.length; at += 4096) {
      count += splitter.push(text.slice(at, at + 4096)).length;
      held = Math.max(held, (splitter as unknown as { buf: string }).buf.length);
    }
    expect(count).toBe(many.length);
    expect(held).toBeLessThan(4096 + 100);
  });
});
