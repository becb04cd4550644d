// A zip writer for tests that need archives no real writer makes: entry names kept byte for byte ("../evil",
// "/abs"), for the hostile-archive tests of extraction. The server writes its zips with archiver.
import { crc32 } from 'node:zlib';
import type { ArchiveEntry } from '../../server/services/archive/archive-entries';

// A streamed zip without compression (STORE, as the reference does): each entry is a local header, the bytes,
// and a data descriptor with the CRC computed on the way (general purpose flag bit 3), names in UTF-8 (bit 11).
// Zip64 records are written only where a value does not fit: entries of 4 GiB and more, offsets past 4 GiB,
// 65535 entries and more. The central directory (about 100 bytes an entry) is the only thing held until the end.

const enc = new TextEncoder();
const U32 = 0xffffffff;
const U16 = 0xffff;
const FLAGS = 0x0808; // bit 3: sizes and CRC follow the data; bit 11: UTF-8 names
const MADE_BY = (3 << 8) | 45; // Unix, spec 4.5: the external attributes carry a Unix mode
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** MS-DOS date and time (local time, 2-second steps, 1980..2107). */
function dosTime(d: Date): { time: number; date: number } {
  const y = d.getFullYear();
  if (Number.isNaN(y) || y < 1980) return { time: 0, date: (1 << 5) | 1 };
  if (y > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((y - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** The "UT" extra field: the modification time in Unix seconds (UTC), which DOS times cannot say. */
function utExtra(d: Date): Buffer {
  const b = Buffer.alloc(9);
  b.writeUInt16LE(0x5455, 0);
  b.writeUInt16LE(5, 2);
  b.writeUInt8(1, 4); // flags: modification time present
  b.writeUInt32LE(Math.min(Math.max(Math.floor(d.getTime() / 1000), 0), U32), 5);
  return b;
}

interface CentralRecord {
  name: Uint8Array;
  dir: boolean;
  mode: number;
  mtime: Date;
  crc: number;
  size: number;
  offset: number;
}

/** Writes one zip as entries arrive; `entry` and then `end` yield its bytes in order. */
export class ZipWriter {
  private offset = 0;
  private readonly records: CentralRecord[] = [];

  /** The local header, the bytes and the data descriptor of one entry. */
  async *entry(e: ArchiveEntry): AsyncGenerator<Uint8Array> {
    const name = enc.encode(e.dir ? `${e.name}/` : e.name);
    const zip64 = !e.dir && e.size >= U32;
    const { time, date } = dosTime(e.mtime);
    const extras = [utExtra(e.mtime)];
    if (zip64) {
      // Sizes are in the descriptor (bit 3); the zip64 field must still be present, with zeros, in the local header.
      const z = Buffer.alloc(20);
      z.writeUInt16LE(0x0001, 0);
      z.writeUInt16LE(16, 2);
      extras.push(z);
    }
    const extra = Buffer.concat(extras);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(zip64 ? 45 : 20, 4);
    h.writeUInt16LE(FLAGS, 6);
    h.writeUInt16LE(0, 8); // STORE
    h.writeUInt16LE(time, 10);
    h.writeUInt16LE(date, 12);
    h.writeUInt32LE(0, 14); // CRC: in the descriptor
    h.writeUInt32LE(zip64 ? U32 : 0, 18);
    h.writeUInt32LE(zip64 ? U32 : 0, 22);
    h.writeUInt16LE(name.length, 26);
    h.writeUInt16LE(extra.length, 28);
    const offset = this.offset;
    const head = Buffer.concat([h, name, extra]);
    this.offset += head.length;
    yield head;

    let crc = 0;
    let size = 0;
    if (!e.dir && e.body) {
      for await (const chunk of e.body) {
        crc = crc32(chunk, crc);
        size += chunk.length;
        this.offset += chunk.length;
        yield chunk;
      }
    }
    const d = Buffer.alloc(zip64 ? 24 : 16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(crc, 4);
    if (zip64) {
      d.writeBigUInt64LE(BigInt(size), 8);
      d.writeBigUInt64LE(BigInt(size), 16);
    } else {
      d.writeUInt32LE(size, 8);
      d.writeUInt32LE(size, 12);
    }
    this.offset += d.length;
    yield d;
    this.records.push({ name, dir: e.dir, mode: e.mode, mtime: e.mtime, crc, size, offset });
  }

  /** The central directory and its end records (zip64 ones when a count, size or offset does not fit). */
  *end(): Generator<Uint8Array> {
    const cdOffset = this.offset;
    let cdSize = 0;
    for (const r of this.records) {
      const big = r.size >= U32;
      const far = r.offset >= U32;
      const z64: Buffer[] = [];
      if (big) z64.push(u64(r.size), u64(r.size));
      if (far) z64.push(u64(r.offset));
      const extras = [utExtra(r.mtime)];
      if (z64.length) {
        const head = Buffer.alloc(4);
        head.writeUInt16LE(0x0001, 0);
        head.writeUInt16LE(z64.length * 8, 2);
        extras.push(head, ...z64);
      }
      const extra = Buffer.concat(extras);
      const { time, date } = dosTime(r.mtime);
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(MADE_BY, 4);
      c.writeUInt16LE(big || far ? 45 : 20, 6);
      c.writeUInt16LE(FLAGS, 8);
      c.writeUInt16LE(0, 10);
      c.writeUInt16LE(time, 12);
      c.writeUInt16LE(date, 14);
      c.writeUInt32LE(r.crc, 16);
      c.writeUInt32LE(big ? U32 : r.size, 20);
      c.writeUInt32LE(big ? U32 : r.size, 24);
      c.writeUInt16LE(r.name.length, 28);
      c.writeUInt16LE(extra.length, 30);
      // 32: comment length, 34: disk, 36: internal attributes: all zero
      const attrs = r.dir ? ((S_IFDIR | 0o755) * 0x10000 + 0x10) : (S_IFREG | r.mode) * 0x10000;
      c.writeUInt32LE(attrs, 38);
      c.writeUInt32LE(far ? U32 : r.offset, 42);
      const rec = Buffer.concat([c, r.name, extra]);
      cdSize += rec.length;
      yield rec;
    }
    const count = this.records.length;
    const zip64 = count >= U16 || cdSize >= U32 || cdOffset >= U32;
    if (zip64) {
      const z = Buffer.alloc(56 + 20);
      z.writeUInt32LE(0x06064b50, 0);
      z.writeBigUInt64LE(44n, 4); // the size of the rest of this record
      z.writeUInt16LE(MADE_BY, 12);
      z.writeUInt16LE(45, 14);
      // 16: this disk, 20: the central directory's disk: zero
      z.writeBigUInt64LE(BigInt(count), 24);
      z.writeBigUInt64LE(BigInt(count), 32);
      z.writeBigUInt64LE(BigInt(cdSize), 40);
      z.writeBigUInt64LE(BigInt(cdOffset), 48);
      // The locator: where the zip64 end record starts.
      z.writeUInt32LE(0x07064b50, 56);
      z.writeBigUInt64LE(BigInt(cdOffset + cdSize), 64);
      z.writeUInt32LE(1, 72); // total number of disks
      yield z;
    }
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(zip64 ? U16 : count, 8);
    eocd.writeUInt16LE(zip64 ? U16 : count, 10);
    eocd.writeUInt32LE(zip64 ? U32 : cdSize, 12);
    eocd.writeUInt32LE(zip64 ? U32 : cdOffset, 16);
    yield eocd;
  }
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** A zip stream of the entries. */
export async function* zipStream(entries: AsyncIterable<ArchiveEntry>): AsyncGenerator<Uint8Array> {
  const zip = new ZipWriter();
  for await (const e of entries) yield* zip.entry(e);
  yield* zip.end();
}
