/**
 * A line diff for the Versions panel (Myers' O(ND) algorithm on lines, with the common head and tail trimmed first),
 * and its shaping into hunks with a little context around each change, unified or side by side.
 */

export type DiffOp = { kind: 'same' | 'del' | 'add'; text: string; /** 1-based line in the old text */ a?: number; /** 1-based line in the new text */ b?: number };

/** Past this many differing lines the edit script is not searched for (the texts have little in common). */
export const MAX_EDIT_DISTANCE = 2000;

export const splitLines = (text: string): string[] => {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** The shortest edit script from `a` to `b`; null when it would need more than MAX_EDIT_DISTANCE edits. */
function middle(a: readonly string[], b: readonly string[]): ('same' | 'del' | 'add')[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    // Only the diagonals step d can reach are kept: the memory grows with d², not with the texts' length.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) x++, y++;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return null;
  // Walk back through the saved frontiers, from the end to the start.
  const ops: ('same' | 'del' | 'add')[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const w = trace[d]!;
    const at = (k: number) => w[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push('same'), x--, y--;
    ops.push(x === prevX ? 'add' : 'del');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) ops.push('same'), x--, y--;
  return ops.reverse();
}

/** Every line of both texts as kept, deleted or added; null when the texts differ in too many lines to compare. */
export function diffLines(oldText: string, newText: string): DiffOp[] | null {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const script = middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  if (!script) return null;
  const out: DiffOp[] = [];
  let i = 0;
  let j = 0;
  const same = () => (out.push({ kind: 'same', text: a[i]!, a: i + 1, b: j + 1 }), i++, j++);
  while (i < head) same();
  for (const op of script) {
    if (op === 'same') same();
    else if (op === 'del') out.push({ kind: 'del', text: a[i]!, a: i + 1 }), i++;
    else out.push({ kind: 'add', text: b[j]!, b: j + 1 }), j++;
  }
  while (i < a.length) same();
  return out;
}

/** A run of lines around changes; `skipped` unchanged lines come before it. */
export interface Hunk {
  skipped: number;
  ops: DiffOp[];
}

/** Groups the changes with `context` unchanged lines around each; long unchanged stretches are left out. */
export function toHunks(ops: readonly DiffOp[], context = 3): Hunk[] {
  const keep = new Uint8Array(ops.length);
  ops.forEach((op, k) => {
    if (op.kind === 'same') return;
    for (let c = Math.max(0, k - context); c <= Math.min(ops.length - 1, k + context); c++) keep[c] = 1;
  });
  const hunks: Hunk[] = [];
  let skipped = 0;
  let current: Hunk | null = null;
  ops.forEach((op, k) => {
    if (!keep[k]) {
      skipped++;
      current = null;
      return;
    }
    if (!current) {
      current = { skipped, ops: [] };
      hunks.push(current);
      skipped = 0;
    }
    current.ops.push(op);
  });
  return hunks;
}

/** One row of a side-by-side view: the old line on the left, the new on the right (either may be missing). */
export interface SideRow {
  left?: DiffOp;
  right?: DiffOp;
}

/** Pairs each block of deleted lines with the added lines that follow it, row by row. */
export function sideBySide(ops: readonly DiffOp[]): SideRow[] {
  const rows: SideRow[] = [];
  for (let k = 0; k < ops.length; ) {
    const op = ops[k]!;
    if (op.kind === 'same') {
      rows.push({ left: op, right: op });
      k++;
      continue;
    }
    const dels: DiffOp[] = [];
    const adds: DiffOp[] = [];
    while (k < ops.length && ops[k]!.kind === 'del') dels.push(ops[k++]!);
    while (k < ops.length && ops[k]!.kind === 'add') adds.push(ops[k++]!);
    for (let r = 0; r < Math.max(dels.length, adds.length); r++) rows.push({ left: dels[r], right: adds[r] });
  }
  return rows;
}
