/** A digit run is left-padded with zeros to this many digits (runs of 20 digits or more are kept as they are). */
export const KEY_DIGITS = 20;

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Writes the natural key of `s` into `out` from `at` and returns where it ends: the code units of `s`, each digit run
 * without its leading zeros (a run of zeros keeps its last one) and left-padded with zeros to KEY_DIGITS, so that
 * plain code-unit order is the natural order ("file2" before "file10"). `s` is lower case already, or ASCII with
 * `lowerAscii` set (A-Z lowered as they are written). `out` must have room from `at` for s.length units plus
 * KEY_DIGITS per digit run.
 */
export function writeNaturalKey(s: string, lowerAscii: boolean, out: Uint16Array, at: number): number {
  const m = s.length;
  let w = at;
  for (let c = 0; c < m; c++) {
    const code = s.charCodeAt(c);
    if (!isDigit(code)) {
      out[w++] = lowerAscii && code >= 65 && code <= 90 ? code + 32 : code;
      continue;
    }
    let start = c;
    while (start < m - 1 && s.charCodeAt(start) === 48 && isDigit(s.charCodeAt(start + 1))) start++;
    let end = start + 1;
    while (end < m && isDigit(s.charCodeAt(end))) end++;
    for (let z = end - start; z < KEY_DIGITS; z++) out[w++] = 48;
    for (let d = start; d < end; d++) out[w++] = s.charCodeAt(d);
    c = end - 1;
  }
  return w;
}

let scratch = new Uint16Array(1024);

/**
 * A key whose plain string order is the natural, case-insensitive order (writeNaturalKey on the lower-cased name).
 * A name without digits is its own lower-cased key (no copy).
 */
export function naturalKey(name: string): string {
  const s = name.toLowerCase();
  let digits = false;
  for (let c = 0; c < s.length && !digits; c++) digits = isDigit(s.charCodeAt(c));
  if (!digits) return s;
  if (scratch.length < s.length * (KEY_DIGITS + 1)) scratch = new Uint16Array(s.length * (KEY_DIGITS + 1));
  const end = writeNaturalKey(s, false, scratch, 0);
  return String.fromCharCode.apply(null, scratch.subarray(0, end) as unknown as number[]);
}
