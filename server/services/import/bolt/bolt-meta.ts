import { invalid } from '../../../core/errors';
import type { ReadOnlyFile } from '../../../fs/read-only-file';

/**
 * The meta pages of a bbolt file (format version 2, as boltdb/bolt 1.3 and bbolt 1.3–1.5 write it): which of the
 * two to trust, the page size and the root bucket's page. The rules follow bbolt's own open: a meta page is valid
 * when its magic, version and FNV-1a 64 checksum hold; the valid one with the higher txid wins, the other is the
 * fallback after a torn write. Integers are in the writer's byte order, found from the magic.
 */

export const BOLT_MAGIC = 0xed0cdaed;
const BOLT_VERSION = 2;
/** The meta struct: magic at page offset 16 … checksum at 72, covering bytes 16..71. */
const META_START = 16;
const META_END = 80;
const CHECKSUM_AT = 72;

export interface BoltMeta {
  pageSize: number;
  /** Page id of the root bucket's root page. */
  root: number;
  /** High-water mark: every page in use is below it. */
  pgid: number;
  txid: bigint;
  littleEndian: boolean;
  /** Which meta page was chosen (0 or 1), for messages. */
  page: 0 | 1;
}

type MetaCheck = { meta: BoltMeta } | { why: string; signature: boolean };

/** Reads and chooses the meta page; throws INVALID naming what is wrong when neither can be trusted. */
export async function readBoltMeta(file: ReadOnlyFile): Promise<BoltMeta> {
  if (file.size === 0) throw invalid('the file is empty (0 bytes): filebrowser never initialised it');
  const first = await file.read(0, Math.min(file.size, META_END));
  if (file.size < META_END) {
    const magic = file.size >= 20 && [true, false].some((le) => new DataView(first.buffer, 16, 4).getUint32(0, le) === BOLT_MAGIC);
    if (magic) throw invalid(`truncated: the file is only ${file.size} bytes, shorter than a bbolt meta page`);
    throw invalid(`not a bbolt database (${file.size} bytes, no bbolt signature)${foreignKind(first)}`);
  }
  const m0 = checkMeta(first, 0);
  let m1: MetaCheck = { why: 'not found', signature: false };
  if ('meta' in m0) {
    if (file.size >= m0.meta.pageSize + META_END) m1 = checkMeta(await file.read(m0.meta.pageSize, META_END), 1);
    else m1 = { why: `the file ends before it (${file.size} bytes)`, signature: false };
    if ('meta' in m1 && m1.meta.pageSize !== m0.meta.pageSize) m1 = { why: `page size ${m1.meta.pageSize}, not page 0's ${m0.meta.pageSize}`, signature: true };
  } else {
    // Page 0 cannot tell the page size: probe where page 1 would start for each size, as bbolt does.
    for (let i = 0; i <= 14; i++) {
      const at = 1024 * 2 ** i;
      if (at + META_END > file.size) break;
      const c = checkMeta(await file.read(at, META_END), 1);
      if ('meta' in c && c.meta.pageSize === at) {
        m1 = c;
        break;
      }
      if (!('meta' in c) && c.signature) m1 = c;
    }
  }
  const valid = [m0, m1].flatMap((c) => ('meta' in c ? [c.meta] : []));
  if (valid.length === 0) {
    const why0 = 'why' in m0 ? m0.why : '';
    const why1 = 'why' in m1 ? m1.why : '';
    const signed = ('signature' in m0 && m0.signature) || ('signature' in m1 && m1.signature);
    if (!signed) throw invalid(`not a bbolt database (no bbolt signature in its meta pages)${foreignKind(first)}`);
    throw invalid(`corrupt: both meta pages are damaged (page 0: ${why0}; page 1: ${why1})`);
  }
  const meta = valid.reduce((a, b) => (b.txid > a.txid ? b : a));
  const bytes = meta.pgid * meta.pageSize;
  if (bytes > file.size)
    throw invalid(`corrupt or truncated: the database has ${meta.pgid} pages of ${meta.pageSize} bytes (${bytes} bytes) but the file is ${file.size} bytes`);
  if (meta.root < 2 || meta.root >= meta.pgid) throw invalid(`corrupt: meta page ${meta.page} names root page ${meta.root}, outside pages 2..${meta.pgid - 1}`);
  return meta;
}

/** Checks one meta page (its first 80 bytes), in whichever byte order its magic reads right. */
function checkMeta(bytes: Uint8Array, page: 0 | 1): MetaCheck {
  const view = new DataView(bytes.buffer, bytes.byteOffset, META_END);
  const littleEndian = view.getUint32(META_START, true) === BOLT_MAGIC;
  if (!littleEndian && view.getUint32(META_START, false) !== BOLT_MAGIC) return { why: 'no bbolt magic', signature: false };
  const version = view.getUint32(20, littleEndian);
  if (version !== BOLT_VERSION) return { why: `format version ${version}, not ${BOLT_VERSION}`, signature: true };
  const stored = view.getBigUint64(CHECKSUM_AT, littleEndian);
  if (fnv1a64(bytes.subarray(META_START, CHECKSUM_AT)) !== stored) return { why: 'checksum mismatch', signature: true };
  const pageSize = view.getUint32(24, littleEndian);
  // bbolt accepts any size; anything but a power of two from 512 to 64 KiB is damage or a hostile file.
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return { why: `page size ${pageSize} is not a power of two from 512 to 65536`, signature: true };
  const root = view.getBigUint64(32, littleEndian);
  const pgid = view.getBigUint64(56, littleEndian);
  if (pgid > BigInt(Number.MAX_SAFE_INTEGER) || root > pgid) return { why: `page counts out of range (root ${root}, pages ${pgid})`, signature: true };
  const txid = view.getBigUint64(64, littleEndian);
  return { meta: { pageSize, root: Number(root), pgid: Number(pgid), txid, littleEndian, page } };
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const U64 = 0xffffffffffffffffn;

/** FNV-1a, 64 bits: bbolt's meta checksum. */
export function fnv1a64(bytes: Uint8Array): bigint {
  let h = FNV_OFFSET;
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & U64;
  return h;
}

/** A hint for files people mistake for the bbolt one (the fork's SQLite database, an archive). */
function foreignKind(head: Uint8Array): string {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 16));
  if (text.startsWith('SQLite format 3')) return ': it is an SQLite database';
  if (head[0] === 0x1f && head[1] === 0x8b) return ': it is gzip-compressed (unpack it first)';
  if (text.startsWith('PK\u0003\u0004')) return ': it is a zip archive (unpack it first)';
  return '';
}
