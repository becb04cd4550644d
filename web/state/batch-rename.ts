/**
 * Batch rename (issue 16 item 5): the new names a pattern and a find/replace give a selection, and what stands in
 * the way of applying them. Pure functions, no DOM: the prompt and the unit tests share them.
 */

/** Longest pattern, find text and replacement accepted (a name is at most 255 bytes anyway). */
export const MAX_FIELD = 255;
/** Widest zero padding of `{n:W}`. */
export const MAX_PAD = 12;

export interface BatchItem {
  name: string;
  isDir: boolean;
  /** ISO date-time, for `{date}`. */
  modified: string;
  /** Index among the listing's items (the server's order). */
  index: number;
}

export interface FindReplace {
  find: string;
  replace: string;
  caseSensitive: boolean;
  regex: boolean;
}

export interface BatchOptions extends FindReplace {
  /** Empty keeps the name (as `{name}{ext}`). */
  pattern: string;
  start: number;
  step: number;
}

/**
 * Splits a name into stem and extension (with its dot): "report.final.pdf" → ["report.final", ".pdf"]. A folder,
 * a name without a dot, a leading-dot name (".bashrc") or a trailing dot has no extension.
 */
export function splitExtension(name: string, isDir: boolean): [string, string] {
  const dot = name.lastIndexOf('.');
  if (isDir || dot <= 0 || dot === name.length - 1) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** The listing shows folders first, then files, each in the server's order: the counter follows that. */
export function listingOrder<T extends Pick<BatchItem, 'isDir' | 'index'>>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => Number(a.isDir === b.isDir ? 0 : a.isDir ? -1 : 1) || a.index - b.index);
}

const two = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of an ISO time as YYYY-MM-DD ('' when it does not parse). */
export function dayOf(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

function counter(n: number, pad: number): string {
  const digits = String(Math.abs(n)).padStart(pad, '0');
  return n < 0 ? `-${digits}` : digits;
}

const TOKEN = /\{(name|ext|date|n)(?::(\d{1,2}))?\}/g;

/** Fills the pattern's tokens for the item at `position` (0-based) of the ordered selection. Unknown braces stay. */
export function applyPattern(pattern: string, item: BatchItem, position: number, start: number, step: number): string {
  if (!pattern) return item.name;
  const [stem, ext] = splitExtension(item.name, item.isDir);
  return pattern.replace(TOKEN, (_, token: string, width?: string) => {
    if (token === 'name') return stem;
    if (token === 'ext') return ext;
    if (token === 'date') return dayOf(item.modified);
    return counter(start + position * step, Math.min(Number(width ?? 0), MAX_PAD));
  });
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The find/replace as a global RegExp and the replacement String.replace takes (plain text: escaped, and `$`
 * in the replacement kept literally); null when there is nothing to find, an Error when the regex does not compile.
 */
export function compileFind(f: FindReplace): { re: RegExp; replacement: string } | null | Error {
  if (!f.find) return null;
  if (f.find.length > MAX_FIELD || f.replace.length > MAX_FIELD) return new Error('too long');
  const flags = f.caseSensitive ? 'gu' : 'giu';
  try {
    if (f.regex) return { re: new RegExp(f.find, flags), replacement: f.replace };
    return { re: new RegExp(escapeRegex(f.find), flags), replacement: f.replace.replaceAll('$', '$$$$') };
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

export type Problem = 'invalid' | 'tooLong' | 'duplicate' | 'exists';

export interface Row {
  item: BatchItem;
  to: string;
  /** A blocking problem (Apply stays disabled), or null. */
  problem: Problem | null;
  /** Another new name differs from this one only in letter case (allowed; some file systems would clash). */
  caseWarning: boolean;
  unchanged: boolean;
}

const encoder = new TextEncoder();

/** Why a new name cannot be used as it is ('/' and NUL, the special names, past 255 bytes), or null. */
export function nameProblem(name: string): 'invalid' | 'tooLong' | null {
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) return 'invalid';
  return encoder.encode(name).length > 255 ? 'tooLong' : null;
}

/**
 * The preview rows for new names already computed (`names[k]` for `ordered[k]`; trimmed like a typed name).
 * `existing` holds every name in the folder; a new name may take one only when that item is itself renamed away.
 */
export function checkNames(ordered: readonly BatchItem[], names: readonly string[], existing: Iterable<string>): Row[] {
  const rows: Row[] = ordered.map((item, k) => {
    const to = names[k]!.trim();
    return { item, to, problem: nameProblem(to), caseWarning: false, unchanged: to === item.name };
  });
  const leaving = new Set(rows.filter((r) => !r.unchanged).map((r) => r.item.name));
  const staying = new Set([...existing].filter((n) => !leaving.has(n)));
  const exact = new Map<string, number>();
  const folded = new Map<string, Set<string>>();
  for (const r of rows) {
    exact.set(r.to, (exact.get(r.to) ?? 0) + 1);
    const key = r.to.toLowerCase();
    folded.set(key, (folded.get(key) ?? new Set()).add(r.to));
  }
  for (const r of rows) {
    if (r.unchanged || r.problem) continue;
    if (exact.get(r.to)! > 1) r.problem = 'duplicate';
    else if (staying.has(r.to)) r.problem = 'exists';
  }
  for (const r of rows) r.caseWarning = folded.get(r.to.toLowerCase())!.size > 1;
  return rows;
}

/** The new names before the find/replace: the pattern applied in order. */
export function patternNames(ordered: readonly BatchItem[], o: Pick<BatchOptions, 'pattern' | 'start' | 'step'>): string[] {
  return ordered.map((item, k) => applyPattern(o.pattern, item, k, o.start, o.step));
}

/** Apply is possible when at least one name changes and no row has a blocking problem. */
export const canApply = (rows: readonly Row[]) => rows.some((r) => !r.unchanged) && rows.every((r) => r.unchanged || !r.problem);
