import { fnv1a64 } from '../../server/services/import/bolt/bolt-meta';

/**
 * Writes a small bbolt file (format version 2) for tests of the read-only reader: meta pages 0 and 1, an empty
 * freelist page, and one root leaf page whose buckets are all inline (a bucket is a record of keys: a string or bytes
 * value is a plain entry, an object a nested bucket). Enough to build what no real fixture holds: a filebrowser 1.x
 * database, a bbolt file of another program, a big-endian file, a foreign storm codec.
 */
export type BoltBucket = { [key: string]: string | Uint8Array | BoltBucket };

const LEAF = 0x02;
const META = 0x04;
const FREELIST = 0x10;

export function writeBoltFile(buckets: BoltBucket, options: { pageSize?: number; littleEndian?: boolean } = {}): Uint8Array {
  const pageSize = options.pageSize ?? 4096;
  const le = options.littleEndian ?? true;
  const root = leafPage(buckets, 3, le);
  const rootPages = Math.ceil(root.length / pageSize);
  const pgid = 3 + rootPages;
  const file = new Uint8Array(pgid * pageSize);
  const view = new DataView(file.buffer);
  for (const page of [0, 1]) {
    const at = page * pageSize;
    view.setBigUint64(at, BigInt(page), le);
    view.setUint16(at + 8, META, le);
    view.setUint32(at + 16, 0xed0cdaed, le);
    view.setUint32(at + 20, 2, le);
    view.setUint32(at + 24, pageSize, le);
    view.setBigUint64(at + 32, 3n, le); // root bucket page
    view.setBigUint64(at + 48, 2n, le); // freelist page
    view.setBigUint64(at + 56, BigInt(pgid), le);
    view.setBigUint64(at + 64, BigInt(page), le); // txid
    view.setBigUint64(at + 72, fnv1a64(file.subarray(at + 16, at + 72)), le);
  }
  view.setBigUint64(2 * pageSize, 2n, le);
  view.setUint16(2 * pageSize + 8, FREELIST, le);
  file.set(root, 3 * pageSize);
  view.setUint32(3 * pageSize + 12, rootPages - 1, le); // overflow count when the root leaf is bigger than a page
  return file;
}

/** A leaf page (header and elements) holding `bucket`'s entries in key order; nested buckets become inline values. */
function leafPage(bucket: BoltBucket, id: number, le: boolean): Uint8Array {
  const enc = new TextEncoder();
  const entries = Object.keys(bucket)
    .sort()
    .map((name) => {
      const v = bucket[name]!;
      const key = enc.encode(name);
      if (typeof v === 'string') return { flags: 0, key, value: enc.encode(v) };
      if (v instanceof Uint8Array) return { flags: 0, key, value: v };
      const inner = leafPage(v, 0, le);
      const value = new Uint8Array(16 + inner.length); // InBucket { root: 0 (inline), sequence: 0 } then the page
      value.set(inner, 16);
      return { flags: 1, key, value };
    });
  const size = 16 + entries.length * 16 + entries.reduce((n, e) => n + e.key.length + e.value.length, 0);
  const page = new Uint8Array(size);
  const view = new DataView(page.buffer);
  view.setBigUint64(0, BigInt(id), le);
  view.setUint16(8, LEAF, le);
  view.setUint16(10, entries.length, le);
  let data = 16 + entries.length * 16;
  entries.forEach((e, i) => {
    const at = 16 + i * 16;
    view.setUint32(at, e.flags, le);
    view.setUint32(at + 4, data - at, le);
    view.setUint32(at + 8, e.key.length, le);
    view.setUint32(at + 12, e.value.length, le);
    page.set(e.key, data);
    page.set(e.value, data + e.key.length);
    data += e.key.length + e.value.length;
  });
  return page;
}

/** storm's key for an int id: 8 bytes, big-endian (as a string of char codes, so for ids below 128 only). */
export function stormId(id: number): string {
  return String.fromCharCode(...new Uint8Array(new BigUint64Array([BigInt(id)]).buffer).reverse());
}
