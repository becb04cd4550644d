// Tar headers written by hand, for tests that need an archive no writer would make (a header that lies about its
// size, for one). POSIX ustar with pax extended headers (POSIX.1-2001) where ustar cannot hold a value: names that
// do not fit the 100+155 byte fields or are not ASCII, sizes of 8 GiB and more, times outside 0..8^11 seconds.

/** What a header describes. */
export interface TarHeaderEntry {
  name: string;
  dir: boolean;
  mode: number;
  mtime: Date;
  size: number;
}

const BLOCK = 512;
const MAX_OCTAL_11 = 0o77777777777;
const enc = new TextEncoder();
const ZEROS = new Uint8Array(BLOCK * 2);

function putString(h: Uint8Array, at: number, len: number, bytes: Uint8Array): void {
  h.set(bytes.subarray(0, len), at);
}

/** An octal number field: zero-padded digits then NUL, `len` bytes in all. */
function putOctal(h: Uint8Array, at: number, len: number, n: number): void {
  putString(h, at, len, enc.encode(`${n.toString(8).padStart(len - 1, '0')}\0`));
}

/** Splits a name into ustar's prefix and name fields at a "/", or null when it cannot be split. */
function splitName(name: Uint8Array): { prefix: Uint8Array; name: Uint8Array } | null {
  if (name.length <= 100) return { prefix: new Uint8Array(0), name };
  // The name part may end with "/" (a folder); the split slash itself is in neither field.
  for (let i = name.length - 2; i > 0; i--) {
    if (name[i] !== 0x2f) continue;
    if (i > 155) continue;
    if (name.length - i - 1 > 100) break;
    return { prefix: name.subarray(0, i), name: name.subarray(i + 1) };
  }
  return null;
}

function block(name: Uint8Array, prefix: Uint8Array, type: string, mode: number, size: number, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  putString(h, 0, 100, name);
  putOctal(h, 100, 8, mode);
  putOctal(h, 108, 8, 0); // uid
  putOctal(h, 116, 8, 0); // gid
  putOctal(h, 124, 12, size);
  putOctal(h, 136, 12, mtime);
  h.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  h[156] = type.charCodeAt(0);
  putString(h, 257, 8, enc.encode('ustar\x0000'));
  putOctal(h, 329, 8, 0); // devmajor
  putOctal(h, 337, 8, 0); // devminor
  putString(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  putString(h, 148, 8, enc.encode(`${sum.toString(8).padStart(6, '0')}\0 `));
  return h;
}

/** One pax record, "<length> <key>=<value>\n", where the length counts the whole record, itself included. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  const restLen = enc.encode(rest).length;
  let len = restLen + 1;
  while (String(len).length + restLen !== len) len = String(len).length + restLen;
  return `${len}${rest}`;
}

const ascii = (b: Uint8Array) => b.every((c) => c >= 0x20 && c < 0x7f);

/** The header block(s) of an entry: ustar, preceded by a pax header when ustar alone cannot say it exactly. */
export function tarHeader(e: TarHeaderEntry): Uint8Array {
  const full = enc.encode(e.dir ? `${e.name}/` : e.name);
  const size = e.dir ? 0 : e.size;
  const mtime = Math.floor(e.mtime.getTime() / 1000);
  const split = ascii(full) ? splitName(full) : null;
  const records: string[] = [];
  if (!split) records.push(paxRecord('path', e.dir ? `${e.name}/` : e.name));
  if (size > MAX_OCTAL_11) records.push(paxRecord('size', String(size)));
  if (mtime < 0 || mtime > MAX_OCTAL_11) records.push(paxRecord('mtime', String(mtime)));
  const type = e.dir ? '5' : '0';
  const clampedTime = Math.min(Math.max(mtime, 0), MAX_OCTAL_11);
  if (!records.length) return block(split!.name, split!.prefix, type, e.mode, size, clampedTime);
  const pax = enc.encode(records.join(''));
  // The ustar header after a pax header keeps an ASCII stand-in for the name for tools that ignore pax.
  const standIn = enc.encode((e.name.replace(/[^\x20-\x7e]/g, '_').slice(-99) || 'entry') + (e.dir ? '/' : ''));
  return concat([
    block(enc.encode('PaxHeader'), new Uint8Array(0), 'x', 0o644, pax.length, clampedTime),
    pax,
    ZEROS.subarray(0, padding(pax.length)),
    block(standIn, new Uint8Array(0), type, e.mode, Math.min(size, MAX_OCTAL_11), clampedTime),
  ]);
}

/** Zero bytes that complete a member of `size` bytes to a whole block. */
export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
