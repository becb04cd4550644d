import { KEY_DIGITS, writeNaturalKey } from './natural-key';

/** Ranges up to this size are finished by a comparator sort (the packing below pays off on larger ones). */
const SMALL = 24;
/** The key buffer is kept between listings up to this many code units (16 MB); a bigger one is dropped after use. */
const KEEP_UNITS = 8 * 1024 * 1024;

let kept = new Uint16Array(0);

/**
 * The natural keys of `names` (natural-key.ts), written end to end into one buffer of code units: no string per key. Building 100,000
 * key strings (each a rope of slices) took 33-170 ms here, and reading them as much again; writing the code units
 * takes a few ms, into a buffer kept between listings (fresh memory costs a page fault per 4 KiB on this VM class).
 */
function naturalKeys(names: readonly string[]): { buf: Uint16Array; at: Uint32Array; len: Uint32Array } {
  const n = names.length;
  const at = new Uint32Array(n);
  const len = new Uint32Array(n);
  const wideAt = new Uint8Array(n);
  // An upper bound of the keys' length: each unit once, KEY_DIGITS more per digit run, three units per unit of a name
  // that lower-casing may lengthen (non-ASCII; Unicode's longest lower-case mapping is three units).
  let need = 0;
  for (let i = 0; i < n; i++) {
    const name = names[i]!;
    let runs = 0;
    let wide = false;
    let digit = false;
    for (let c = 0; c < name.length; c++) {
      const code = name.charCodeAt(c);
      if (code > 127) wide = true;
      const d = code >= 48 && code <= 57;
      if (d && !digit) runs++;
      digit = d;
    }
    wideAt[i] = wide ? 1 : 0;
    need += (wide ? name.length * 3 : name.length) + runs * KEY_DIGITS;
  }
  const buf = kept.length >= need ? kept : new Uint16Array(need);
  if (buf.length <= KEEP_UNITS) kept = buf;
  let w = 0;
  for (let i = 0; i < n; i++) {
    at[i] = w;
    // ASCII names are lowered as they are written; others by toLowerCase (which may lengthen them).
    w = wideAt[i] ? writeNaturalKey(names[i]!.toLowerCase(), false, buf, w) : writeNaturalKey(names[i]!, true, buf, w);
    len[i] = w - at[i]!;
  }
  return { buf, at, len };
}
type Keys = ReturnType<typeof naturalKeys>;

/**
 * A folder's entries in name order, A to Z, as indexes: folders first, then by natural key, equal keys by the name's
 * code units. The same order as plain string order on "kind + key + NUL + name" keys, without building those keys or
 * comparing them whole: a folder's names share long prefixes (and every digit run is padded to 20 digits), so a
 * native sort of 100,000 such keys spent 40-90 ms re-reading the same leading characters, on the event loop.
 *
 * A most-significant-first radix over the keys: within a range whose keys share their first `depth` units, the
 * common prefix is skipped, the next few units are packed into one number (the position in the range in its low
 * bits) and the numbers are sorted natively as a Float64Array; runs that share those units go on from where they
 * stopped. A key that has ended packs as 0, before any unit: shorter first, as string order has it.
 */
export function nameOrder(names: readonly string[], dirs: Uint8Array): Uint32Array {
  const n = names.length;
  const keys = naturalKeys(names);
  const idx = new Uint32Array(n);
  let d = 0;
  for (let i = 0; i < n; i++) if (dirs[i]) idx[d++] = i;
  const folders = d;
  for (let i = 0; i < n; i++) if (!dirs[i]) idx[d++] = i;
  const stack: number[] = [0, folders, 0, folders, n, 0];
  while (stack.length) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo > 1) sortRange(idx, lo, hi, depth, keys, names, stack);
  }
  return idx;
}

/** Orders two entries by key, then name (the tie-break of equal natural keys such as "a1" and "A01"). */
function compare(a: number, b: number, k: Keys, names: readonly string[]): number {
  const { buf, at, len } = k;
  const la = len[a]!;
  const lb = len[b]!;
  const pa = at[a]!;
  const pb = at[b]!;
  const stop = Math.min(la, lb);
  for (let c = 0; c < stop; c++) {
    const x = buf[pa + c]!;
    const y = buf[pb + c]!;
    if (x !== y) return x - y;
  }
  if (la !== lb) return la - lb;
  const na = names[a]!;
  const nb = names[b]!;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** Finishes idx[lo, hi) with a comparator sort. */
function sortSmall(idx: Uint32Array, lo: number, hi: number, k: Keys, names: readonly string[]): void {
  const part = Array.from(idx.subarray(lo, hi)).sort((a, b) => compare(a, b, k, names));
  idx.set(part, lo);
}

/**
 * Sorts idx[lo, hi), whose keys share their first `depth` units; runs left to sort are pushed on `stack` as
 * (lo, hi, depth) triples.
 */
function sortRange(idx: Uint32Array, lo: number, hi: number, depth: number, k: Keys, names: readonly string[], stack: number[]): void {
  const size = hi - lo;
  if (size <= SMALL) return sortSmall(idx, lo, hi, k, names);
  const { buf, at, len } = k;
  // The prefix every key of the range shares beyond `depth`.
  const first = idx[lo]!;
  let common = len[first]!;
  const p0 = at[first]!;
  for (let j = lo + 1; j < hi && common > depth; j++) {
    const i = idx[j]!;
    const p = at[i]!;
    const stop = Math.min(common, len[i]!);
    let c = depth;
    while (c < stop && buf[p + c] === buf[p0 + c]) c++;
    common = c;
  }
  let ended = true;
  for (let j = lo; j < hi && ended; j++) ended = len[idx[j]!]! <= common;
  if (ended) return sortSmall(idx, lo, hi, k, names); // equal keys throughout: the names decide
  const posBits = Math.max(1, Math.ceil(Math.log2(size)));
  const posScale = 2 ** posBits;
  // Units pack as code + 1 (0: the key has ended) in as few bits as the range's next units need: 7 for ASCII, 8 for
  // Latin-1, else 17 (0xFFFF + 1); as many of them as fit beside the position.
  const most = Math.floor((53 - posBits) / 7);
  let top = 0;
  for (let j = lo; j < hi; j++) {
    const i = idx[j]!;
    const p = at[i]!;
    const stop = p + Math.min(len[i]!, common + most);
    for (let c = p + common; c < stop; c++) if (buf[c]! > top) top = buf[c]!;
  }
  const unitBits = top < 127 ? 7 : top < 255 ? 8 : 17;
  const width = Math.max(1, Math.floor((53 - posBits) / unitBits));
  const unitScale = 2 ** unitBits;
  const part = idx.slice(lo, hi);
  const vals = new Float64Array(size);
  for (let j = 0; j < size; j++) {
    const i = part[j]!;
    const p = at[i]!;
    const l = len[i]!;
    let v = 0;
    for (let c = common; c < common + width; c++) v = v * unitScale + (c < l ? buf[p + c]! + 1 : 0);
    vals[j] = v * posScale + j;
  }
  // Sorted as numbers: by the packed units, then the position (unique). Runs of equal units go on after them.
  vals.sort();
  const next = common + width;
  let runStart = 0;
  let runUnits = -1;
  for (let j = 0; j < size; j++) {
    const v = vals[j]!;
    const pos = v % posScale;
    const units = (v - pos) / posScale;
    idx[lo + j] = part[pos]!;
    if (units !== runUnits) {
      if (j - runStart > 1) stack.push(lo + runStart, lo + j, next);
      runStart = j;
      runUnits = units;
    }
  }
  if (size - runStart > 1) stack.push(lo + runStart, hi, next);
}
