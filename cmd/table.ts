import { escapeUnsafe, terminalSafeJson } from '../server/core/terminal-safe';

/**
 * The CLI's one way to the terminal (print and fail in context.ts, table below, doctor): text a user or an
 * anonymous visitor chose (names, paths, failed logins' usernames) is shown with its control and bidi characters
 * escaped ("\x1b", "\u202e"), so it can neither move the cursor, erase lines nor forge a row.
 * Whole multi-line output keeps its line breaks; a table cell keeps none.
 */
export function terminalText(text: string): string {
  return escapeUnsafe(text, true);
}

/** --json output: the same values, with what JSON.stringify leaves raw (C1, bidi controls) written as \u escapes. */
export function terminalJson(data: unknown): string {
  return terminalSafeJson(JSON.stringify(data, null, 2));
}

/** Renders rows as an aligned text table for people (scripts use --json). Every cell is escaped (terminalText). */
export function table(headers: string[], rows: (string | number | boolean)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => String(c)))].map((r) => r.map((c) => escapeUnsafe(c ?? '')));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (c ?? '').padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

/** A time for people: ISO 8601 in UTC, to the second. */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
