/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC, CR, BS...), DEL, C1 controls (U+0080-009F,
 * CSI among them), the line and paragraph separators, and the bidirectional marks, embeddings, overrides and
 * isolates (U+061C, U+200E-200F, U+202A-202E, U+2066-2069) that reorder what follows them. Text an anonymous
 * visitor or a user chose (a failed login's name, a file name, a share path) must never reach a terminal with
 * them raw: it could erase lines, move the cursor or make one entry read as another.
 */
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
const UNSAFE_BUT_NEWLINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** True when `s` holds any character of the set above. */
export function hasUnsafeChars(s: string): boolean {
  return UNSAFE.test(s);
}

/** One unsafe character as visible text: "\x1b", "\x9b", "\u202e". */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `s` with every unsafe character shown as its escape ("\x1b[2K\rforged" -> "\\x1b[2K\\x0dforged"); printable text,
 * backslashes included, is left as it is. With `keepNewlines` a "\n" stays a line break (whole multi-line output;
 * a table cell or a single value keeps none).
 */
export function escapeUnsafe(s: string, keepNewlines = false): string {
  return s.replace(keepNewlines ? UNSAFE_BUT_NEWLINE : UNSAFE_ALL, visible);
}

/**
 * JSON text with the unsafe characters JSON.stringify leaves raw (DEL, C1, the separators and bidi controls) written
 * as \u escapes: the same values for a parser, nothing a terminal acts on.
 */
export function terminalSafeJson(json: string): string {
  // C0 is left alone: JSON.stringify already escapes it inside strings, and the "\n" between tokens is layout.
  return json.replace(/[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
