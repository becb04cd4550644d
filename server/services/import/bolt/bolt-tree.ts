import { invalid } from '../../../core/errors';
import type { ReadOnlyFile } from '../../../fs/read-only-file';
import type { BoltMeta } from './bolt-meta';

/**
 * Walks bbolt B+trees read-only: branch and leaf pages, overflow pages, nested and inline buckets. Only what is
 * reachable from the chosen meta's root is read; free pages hold stale copies of old records and are never scanned.
 * The file may be hostile or truncated, so every page id, count and offset is checked against the database and the
 * node it came from, no page may be reached twice (which also rules out cycles) and depth is bounded: the worst a
 * bad file can do is an INVALID AppError naming the page and what is wrong.
 */

const BRANCH = 0x01;
const LEAF = 0x02;
const BUCKET_ENTRY = 0x01;
const HEADER = 16;
const ELEMENT = 16;
/** A bbolt tree of a few million keys is 6–8 levels, nested buckets included; 64 is far past any real file. */
const MAX_DEPTH = 64;

export interface BoltEntry {
  /** True when the entry is a nested bucket (its value is the bucket header, see `BoltTree.forEach`). */
  bucket: boolean;
  key: Uint8Array;
  value: Uint8Array;
}

/** Where a bucket's tree lives: its root page, or (inline bucket) a leaf page carried inside its parent's value. */
export type BucketRef = { page: number; name: string } | { inline: Uint8Array; name: string };

export class BoltTree {
  private readonly visited: Uint8Array;

  constructor(
    private readonly file: ReadOnlyFile,
    private readonly meta: BoltMeta,
  ) {
    this.visited = new Uint8Array(meta.pgid);
  }

  /** The root bucket: its entries are the top-level buckets. */
  root(): BucketRef {
    return { page: this.meta.root, name: '(root)' };
  }

  /** The tree of the nested bucket stored in `entry` (an entry with `bucket` set), named `name` in messages. */
  bucket(entry: BoltEntry, name: string): BucketRef {
    const v = entry.value;
    if (!entry.bucket) throw corrupt(`${name} is a plain value, not a bucket`);
    if (v.length < 16) throw corrupt(`bucket ${name}: its header is ${v.length} bytes, not 16`);
    const root = this.view(v).getBigUint64(0, this.meta.littleEndian);
    if (root === 0n) return { inline: v.subarray(16), name };
    if (root >= BigInt(this.meta.pgid)) throw corrupt(`bucket ${name}: root page ${root} is past the last page (${this.meta.pgid - 1})`);
    return { page: Number(root), name };
  }

  /** Calls `visit` for every entry of the bucket in key order; each page of it is read once, when reached. */
  async forEach(ref: BucketRef, visit: (e: BoltEntry) => void): Promise<void> {
    if ('inline' in ref) {
      const page = ref.inline;
      if (page.length < HEADER) throw corrupt(`inline bucket ${ref.name}: ${page.length} bytes, shorter than a page header`);
      const flags = this.view(page).getUint16(8, this.meta.littleEndian);
      if (flags !== LEAF) throw corrupt(`inline bucket ${ref.name}: page flags 0x${flags.toString(16)}, not a leaf`);
      this.leaf(page, `inline bucket ${ref.name}`, visit);
      return;
    }
    await this.walk(ref.page, 0, `bucket ${ref.name}`, visit);
  }

  private async walk(id: number, depth: number, from: string, visit: (e: BoltEntry) => void): Promise<void> {
    if (depth > MAX_DEPTH) throw corrupt(`page ${id} (${from}): the tree is deeper than ${MAX_DEPTH} levels`);
    const node = await this.node(id, from);
    const le = this.meta.littleEndian;
    const view = this.view(node);
    const flags = view.getUint16(8, le);
    if (flags === LEAF) return this.leaf(node, `page ${id}`, visit);
    if (flags !== BRANCH) throw corrupt(`page ${id} (${from}): flags 0x${flags.toString(16)}, where a branch or leaf page was expected`);
    const count = this.count(node, `page ${id}`);
    for (let i = 0; i < count; i++) {
      const child = view.getBigUint64(HEADER + i * ELEMENT + 8, le);
      if (child >= BigInt(this.meta.pgid)) throw corrupt(`page ${id}: branch element ${i} points to page ${child}, past the last page (${this.meta.pgid - 1})`);
      await this.walk(Number(child), depth + 1, `child ${i} of page ${id}`, visit);
    }
  }

  /** Reads page `id` with its overflow pages, after checking its id, range, and that nothing reached it before. */
  private async node(id: number, from: string): Promise<Uint8Array> {
    const { pageSize, pgid, littleEndian: le } = this.meta;
    if (id < 2 || id >= pgid) throw corrupt(`page ${id} (${from}) is outside the data pages 2..${pgid - 1}`);
    const first = await this.file.read(id * pageSize, pageSize);
    const view = this.view(first);
    const stored = view.getBigUint64(0, le);
    if (stored !== BigInt(id)) throw corrupt(`page ${id} (${from}) carries the id ${stored}: not the page it should be`);
    const overflow = view.getUint32(12, le);
    if (id + overflow >= pgid) throw corrupt(`page ${id}: ${overflow} overflow pages run past the last page (${pgid - 1})`);
    for (let p = id; p <= id + overflow; p++) {
      if (this.visited[p]) throw corrupt(`page ${p} is reached twice (from ${from}): a cycle or a shared page`);
      this.visited[p] = 1;
    }
    return overflow === 0 ? first : this.file.read(id * pageSize, (overflow + 1) * pageSize);
  }

  private count(node: Uint8Array, where: string): number {
    const count = this.view(node).getUint16(10, this.meta.littleEndian);
    if (HEADER + count * ELEMENT > node.length) throw corrupt(`${where}: ${count} elements run past the end of the page (${node.length} bytes)`);
    return count;
  }

  private leaf(node: Uint8Array, where: string, visit: (e: BoltEntry) => void): void {
    const le = this.meta.littleEndian;
    const view = this.view(node);
    const count = this.count(node, where);
    for (let i = 0; i < count; i++) {
      const at = HEADER + i * ELEMENT;
      const flags = view.getUint32(at, le);
      const keyAt = at + view.getUint32(at + 4, le);
      const keySize = view.getUint32(at + 8, le);
      const valueSize = view.getUint32(at + 12, le);
      if (keyAt + keySize + valueSize > node.length)
        throw corrupt(`${where}: element ${i} (key ${keySize} B, value ${valueSize} B at offset ${keyAt}) runs past the end of the page (${node.length} bytes)`);
      visit({
        bucket: (flags & BUCKET_ENTRY) !== 0,
        key: node.subarray(keyAt, keyAt + keySize),
        value: node.subarray(keyAt + keySize, keyAt + keySize + valueSize),
      });
    }
  }

  private view(bytes: Uint8Array): DataView {
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

function corrupt(what: string) {
  return invalid(`corrupt: ${what}`);
}
