import type { ExtractionLimits } from '../../contract/job';
import { AppError, invalid } from '../../core/errors';
import { isReservedName } from '../../fs/reserved-names';
import type { ReadEntry } from './archive-readers';

const refused = (detail: string) => new AppError('INVALID', `refused: ${detail}`);

/**
 * The one check of an archive entry's name, for every format: the relative path it lands at, as components.
 * Refused: absolute names (`/x`, `C:\x`, `\\host`), any `..`, backslashes (a folder separator on Windows), control
 * characters, components over 255 bytes, and the server's reserved names (fs/reserved-names.ts). `.` and
 * empty components are dropped; a name that is nothing else (the archive's root) yields [].
 */
export function entryPath(name: string): string[] {
  const shown = JSON.stringify(name.slice(0, 200));
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw refused(`the archive holds an absolute name ${shown}`);
  if (name.includes('\\')) throw refused(`the archive holds a name with a backslash ${shown}`);
  if (/[\x00-\x1f\x7f]/.test(name)) throw refused(`the archive holds a name with control characters ${shown}`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  for (const p of parts) {
    if (p === '..') throw refused(`the archive holds a name leading out of its folder ${shown}`);
    if (Buffer.byteLength(p) > 255) throw refused(`the archive holds a name component over 255 bytes ${shown}`);
    if (isReservedName(p)) throw refused(`the archive holds a reserved name ${shown}`);
  }
  return parts;
}

/**
 * Links and special files are refused, not skipped: a symlink or hard link could lead out of the folder (or, placed
 * first, redirect a later entry), and device files and FIFOs have no place in a user's files. The whole extraction
 * stops with a message naming the entry; nothing is left behind.
 */
export function refuseSpecial(e: ReadEntry): void {
  const shown = JSON.stringify(e.name.slice(0, 200));
  if (e.kind === 'symlink') throw refused(`the archive holds a symbolic link ${shown}; links are not extracted`);
  if (e.kind === 'hardlink') throw refused(`the archive holds a hard link ${shown}; links are not extracted`);
  if (e.kind === 'device') throw refused(`the archive holds a device file ${shown}`);
  if (e.kind === 'fifo') throw refused(`the archive holds a FIFO ${shown}`);
  if (e.kind === 'other') throw refused(`the archive holds an entry of an unsupported type ${shown}`);
}

/** Below this many bytes written the ratio is not judged (tiny archives of text compress very well). */
const RATIO_FLOOR = 1024 * 1024;

/**
 * Counts what one extraction writes against the admin's limits: entries, total bytes, bytes per file and bytes per
 * byte of archive. Declared sizes are checked before a file is written (fail fast), and the real bytes as they
 * come (a declared size can lie), so a bomb is stopped within one chunk of the limit.
 */
export class ExtractBudget {
  private entries = 0;
  private total = 0;

  constructor(private readonly limits: ExtractionLimits, private readonly archiveBytes: number) {}

  entry(e: ReadEntry): void {
    if (++this.entries > this.limits.maxEntries) throw refused(`the archive holds more than ${this.limits.maxEntries} entries (the limit set by the admin)`);
    if (e.kind === 'file') {
      if (e.size > this.limits.maxEntryBytes) throw refused(`${JSON.stringify(e.name.slice(0, 200))} would be larger than ${this.limits.maxEntryBytes} bytes (the limit set by the admin)`);
      this.check(this.total + e.size, e.name);
    }
  }

  /** Real bytes of the current file (`fileSoFar` including `n`). */
  bytes(n: number, fileSoFar: number, name: string): void {
    this.total += n;
    if (fileSoFar > this.limits.maxEntryBytes) throw refused(`${JSON.stringify(name.slice(0, 200))} is larger than ${this.limits.maxEntryBytes} bytes (the limit set by the admin)`);
    this.check(this.total, name);
  }

  private check(total: number, name: string): void {
    if (total > this.limits.maxBytes) throw refused(`the archive expands past ${this.limits.maxBytes} bytes (the limit set by the admin)`);
    if (total > RATIO_FLOOR && total > this.limits.maxRatio * Math.max(this.archiveBytes, 1))
      throw refused(`the archive expands more than ${this.limits.maxRatio} times its size at ${JSON.stringify(name.slice(0, 200))} (a compression bomb?)`);
  }
}

/** Validates the admin's extraction limits (settings): whole numbers in sane ranges. */
export function normaliseExtractionLimits(v: unknown, current: ExtractionLimits): ExtractionLimits {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid('extraction must be an object');
  const out = { ...current };
  const ranges: Record<keyof ExtractionLimits, [number, number]> = {
    maxBytes: [1, 2 ** 50], maxEntries: [1, 10_000_000], maxEntryBytes: [1, 2 ** 50], maxRatio: [1, 1_000_000],
  };
  for (const [k, val] of Object.entries(v)) {
    const r = ranges[k as keyof ExtractionLimits];
    if (!r) throw invalid(`unknown settings field "extraction.${k}"`);
    if (typeof val !== 'number' || !Number.isInteger(val) || val < r[0] || val > r[1]) throw invalid(`extraction.${k} must be a whole number from ${r[0]} to ${r[1]}`);
    out[k as keyof ExtractionLimits] = val;
  }
  return out;
}
