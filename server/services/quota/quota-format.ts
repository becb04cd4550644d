import type { Quota } from '../../contract/versions';
import { invalid } from '../../core/errors';

/** Largest byte count a quota may name (beyond it a number loses integer precision). */
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * A user's `quota` field as stored: null (no quota), or whole non-negative `bytes` and `files` (0 = that measure
 * unlimited). Both zero is the same as none and is stored as null.
 */
export function normaliseQuota(v: unknown, name = 'quota'): Quota | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid(`${name} must be an object {bytes, files} or null`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'bytes' && k !== 'files') throw invalid(`unknown field ${name}.${k}`);
  const num = (x: unknown, f: string) => {
    if (x === undefined || x === null) return 0;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > MAX) throw invalid(`${name}.${f} must be a whole number of at least 0`);
    return x;
  };
  const q = { bytes: num(o.bytes, 'bytes'), files: num(o.files, 'files') };
  return q.bytes || q.files ? q : null;
}

/**
 * A byte count as people type it on the command line: whole bytes, or with a decimal unit ("500M", "1.5G",
 * "2TB"; k, M, G, T, P, with or without B). Throws INVALID naming `flag` otherwise.
 */
export function parseBytes(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtTpP]?)[bB]?\s*$/.exec(text);
  const n = m ? Math.round(Number(m[1]) * 1000 ** ' kmgtp'.indexOf((m[2] || ' ').toLowerCase())) : NaN;
  if (!Number.isSafeInteger(n)) throw invalid(`${flag} must be a byte count such as 1000000, 500M or 2G (0 = no limit)`);
  return n;
}

/** Bytes for people: "1.0 GB", "980 MB", "12 B" (decimal units, one decimal under 10). */
export function humanBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${n} B` : `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
