import { describe, expect, test } from 'bun:test';
import { applyPattern, canApply, checkNames, compileFind, dayOf, listingOrder, nameProblem, patternNames, splitExtension, type BatchItem } from '../../web/state/batch-rename';
import { planSteps, undoSteps, type Rename, type Step } from '../../web/state/batch-rename-plan';

// Batch rename's pure logic (issue 16 item 5): tokens, find/replace, conflicts, and the order of the renames.
const file = (name: string, index: number, modified = '2024-03-09T10:00:00'): BatchItem => ({ name, isDir: false, modified, index });
const dir = (name: string, index: number): BatchItem => ({ name, isDir: true, modified: '2024-01-01T00:00:00', index });

describe('splitExtension', () => {
  test('the last dot of a file; folders, dotless, leading-dot and trailing-dot names have no extension', () => {
    expect(splitExtension('report.final.pdf', false)).toEqual(['report.final', '.pdf']);
    expect(splitExtension('archive.tar.gz', false)).toEqual(['archive.tar', '.gz']);
    expect(splitExtension('README', false)).toEqual(['README', '']);
    expect(splitExtension('.bashrc', false)).toEqual(['.bashrc', '']);
    expect(splitExtension('odd.', false)).toEqual(['odd.', '']);
    expect(splitExtension('photos.2024', true)).toEqual(['photos.2024', '']);
  });
});

describe('applyPattern', () => {
  test('{name} {ext} {date} and a counter with start, step and padding; unknown braces stay', () => {
    const item = file('IMG_0042.JPG', 3);
    expect(applyPattern('Trip {n:2}{ext}', item, 0, 1, 1)).toBe('Trip 01.JPG');
    expect(applyPattern('Trip {n:3}{ext}', item, 4, 10, 5)).toBe('Trip 030.JPG');
    expect(applyPattern('{n}', item, 2, -3, 1)).toBe('-1');
    expect(applyPattern('{n:3}', item, 0, -7, 1)).toBe('-007');
    expect(applyPattern('{date} {name}{ext}', item, 0, 1, 1)).toBe(`${dayOf(item.modified)} IMG_0042.JPG`);
    expect(dayOf('2024-03-09T10:00:00')).toBe('2024-03-09');
    expect(dayOf('not a date')).toBe('');
    expect(applyPattern('{other} {name', item, 0, 1, 1)).toBe('{other} {name');
    expect(applyPattern('', item, 0, 1, 1)).toBe('IMG_0042.JPG');
    expect(applyPattern('{n:99}', item, 0, 1, 1)).toBe('000000000001');
  });
  test('the counter follows the listing order: folders first, then files, each by the server index', () => {
    const ordered = listingOrder([file('c.jpg', 5), dir('Z', 9), file('a.jpg', 2), dir('A', 1)]);
    expect(ordered.map((i) => i.name)).toEqual(['A', 'Z', 'a.jpg', 'c.jpg']);
    expect(patternNames(ordered, { pattern: 'x{n}{ext}', start: 1, step: 1 })).toEqual(['x1', 'x2', 'x3.jpg', 'x4.jpg']);
  });
});

describe('compileFind', () => {
  const run = (names: string[], f: Parameters<typeof compileFind>[0]) => {
    const c = compileFind(f);
    if (c === null || c instanceof Error) throw new Error('expected a compiled find');
    return names.map((n) => n.replace(c.re, c.replacement));
  };
  test('plain text: every occurrence, case-insensitive unless asked, "$" and regex characters literal', () => {
    expect(run(['a.b.A.B'], { find: 'a.', replace: '$1', caseSensitive: false, regex: false })).toEqual(['$1b.$1B']);
    expect(run(['a.b.A.B'], { find: 'a.', replace: 'x', caseSensitive: true, regex: false })).toEqual(['xb.A.B']);
  });
  test('regex: groups in the replacement; a compile error is an Error, an empty find is null, a long one refused', () => {
    expect(run(['IMG_0042.jpg'], { find: '^IMG_(\\d+)', replace: 'Photo $1', caseSensitive: true, regex: true })).toEqual(['Photo 0042.jpg']);
    expect(compileFind({ find: '(unclosed', replace: '', caseSensitive: true, regex: true })).toBeInstanceOf(Error);
    expect(compileFind({ find: '', replace: 'x', caseSensitive: true, regex: true })).toBeNull();
    expect(compileFind({ find: 'a'.repeat(256), replace: '', caseSensitive: true, regex: false })).toBeInstanceOf(Error);
  });
});

describe('checkNames', () => {
  const items = [file('a.txt', 0), file('b.txt', 1), file('c.txt', 2)];
  test('invalid names: empty, ".", "..", "/", NUL, past 255 bytes (UTF-8)', () => {
    expect(['', '.', '..', 'a/b', 'a\0b'].map(nameProblem)).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'invalid']);
    expect(nameProblem('é'.repeat(128))).toBe('tooLong');
    expect(nameProblem('é'.repeat(127))).toBeNull();
  });
  test('two items with one new name block; names differing only in case warn but do not block', () => {
    const rows = checkNames(items, ['x.txt', 'x.txt', 'X.TXT'], ['a.txt', 'b.txt', 'c.txt']);
    expect(rows.map((r) => r.problem)).toEqual(['duplicate', 'duplicate', null]);
    expect(rows.every((r) => r.caseWarning)).toBe(true);
    const ok = checkNames(items, ['x.txt', 'y.txt', 'X.TXT'], ['a.txt', 'b.txt', 'c.txt']);
    expect(ok.map((r) => r.problem)).toEqual([null, null, null]);
    expect(ok.map((r) => r.caseWarning)).toEqual([true, false, true]);
    expect(canApply(ok)).toBe(true);
  });
  test('a name held by an item that stays blocks; one held by an item renamed away does not; unchanged rows are skipped', () => {
    const rows = checkNames(items, ['b.txt', 'c.txt', 'c.txt'], ['a.txt', 'b.txt', 'c.txt', 'keep.txt']);
    // c.txt stays (unchanged), so b.txt may not take it; a.txt may take b.txt, which is renamed away.
    expect(rows.map((r) => [r.problem, r.unchanged])).toEqual([[null, false], ['duplicate', false], [null, true]]);
    expect(canApply(rows)).toBe(false);
    const clash = checkNames(items, ['keep.txt', ' b2.txt ', 'c.txt'], ['a.txt', 'b.txt', 'c.txt', 'keep.txt']);
    expect(clash.map((r) => r.problem)).toEqual(['exists', null, null]);
    expect(clash[1]!.to).toBe('b2.txt');
    expect(canApply(checkNames(items, ['a.txt', 'b.txt', 'c.txt'], []))).toBe(false);
    expect(canApply(checkNames(items, ['', 'b.txt', 'c.txt'], []))).toBe(false);
  });
});

describe('planSteps', () => {
  /** Runs the steps on a set of names the way the server would: a rename onto a taken name fails. */
  const simulate = (names: string[], renames: Rename[]) => {
    const disk = new Set(names);
    let seq = 0;
    const steps = planSteps(renames, (n) => disk.has(n), () => `t${seq++}`);
    for (const s of steps) {
      if (!disk.has(s.from) || disk.has(s.to)) throw new Error(`step ${s.from} -> ${s.to} would fail`);
      disk.delete(s.from);
      disk.add(s.to);
    }
    return { steps, disk: [...disk].sort() };
  };
  test('renames that do not wait on each other run in the order given (the listing order)', () => {
    const { steps } = simulate(['p', 'q', 'r'], [{ from: 'p', to: 'p1' }, { from: 'q', to: 'q1' }, { from: 'r', to: 'r1' }]);
    expect(steps.map((s) => s.from)).toEqual(['p', 'q', 'r']);
  });
  test('a chain renames its end first', () => {
    const { steps, disk } = simulate(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'd' }]);
    expect(steps.map((s) => `${s.from}>${s.to}`)).toEqual(['c>d', 'b>c', 'a>b']);
    expect(disk).toEqual(['b', 'c', 'd']);
  });
  test('a swap and a three-cycle go through one temporary name each, which avoids every taken and new name', () => {
    const { steps, disk } = simulate(['a', 'b', 'x', 'y', 'z', 'batch-rename-t0.tmp'], [
      { from: 'a', to: 'b' }, { from: 'b', to: 'a' },
      { from: 'x', to: 'y' }, { from: 'y', to: 'z' }, { from: 'z', to: 'x' },
    ]);
    expect(steps.filter((s) => s.temporary).map((s) => s.to)).toEqual(['batch-rename-t1.tmp', 'batch-rename-t2.tmp']);
    expect(steps.length).toBe(7);
    expect(disk).toEqual(['a', 'b', 'batch-rename-t0.tmp', 'x', 'y', 'z']);
  });
  test('10,000 renames shifted by one (a long chain) plan in linear time', () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `f${i}`);
    const renames = names.map((n, i) => ({ from: n, to: `f${i + 1}` }));
    const at = performance.now();
    const { disk } = simulate(names, renames);
    expect(performance.now() - at).toBeLessThan(1000);
    expect(disk.length).toBe(10_000);
    expect(disk.includes('f0')).toBe(false);
    expect(disk.includes('f10000')).toBe(true);
  });
});

describe('undoSteps', () => {
  const step = (from: string, to: string, item: number, temporary = false): Step => ({ from, to, item, temporary });
  test('a finished swap is taken back by its own steps in the reverse order, through the same temporary name', () => {
    const renames = [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }];
    const done = [step('a', 't', 0, true), step('b', 'a', 1), step('t', 'b', 0)];
    expect(undoSteps(renames, done, ['b', 'a'])).toEqual([step('b', 't', 0, true), step('a', 'b', 1), step('t', 'a', 0)]);
  });
  test('a stopped batch: only the items that reached their new name; one parked item goes home last; one restored has nothing', () => {
    // p renamed; the cycle x→y→z→x stopped after z took x's name (x parked at t, its way back refused); q parked and restored.
    const renames = [{ from: 'p', to: 'p1' }, { from: 'x', to: 'y' }, { from: 'y', to: 'z' }, { from: 'z', to: 'x' }, { from: 'q', to: 'r' }];
    const done = [step('p', 'p1', 0), step('x', 't', 1, true), step('z', 'x', 3), step('q', 'u', 4, true), step('u', 'q', 4)];
    expect(undoSteps(renames, done, ['p1', 't', 'y', 'x', 'q'])).toEqual([step('x', 'z', 3), step('p1', 'p', 0), step('t', 'x', 1)]);
  });
  test('nothing renamed and nothing parked: nothing to undo', () => {
    expect(undoSteps([{ from: 'a', to: 'b' }], [], ['a'])).toEqual([]);
  });
});
