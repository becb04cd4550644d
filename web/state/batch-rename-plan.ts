/**
 * The order in which a batch of renames inside one folder can run one at a time, each refusing to replace
 * (issue 16 item 5). New names are distinct and no new name belongs to an item that stays, so the renames form
 * chains (a→b while b→c: b goes first) and cycles (a↔b: one of them steps aside to a temporary name first).
 */

export interface Rename {
  from: string;
  to: string;
}

export interface Step extends Rename {
  /** Which rename of the input this step moves. */
  item: number;
  /** A step to a temporary name (breaking a cycle); the item moves on later. */
  temporary: boolean;
}

/** A visible name no item has or will have; `random` gives a few letters and digits. */
export function temporaryName(taken: (name: string) => boolean, random: () => string): string {
  for (;;) {
    const name = `batch-rename-${random()}.tmp`;
    if (!taken(name)) return name;
  }
}

/**
 * The steps, linear in the number of renames. `taken` tells whether a name is in use in the folder (by anything,
 * including the items being renamed); temporary names avoid those and every new name.
 */
export function planSteps(renames: readonly Rename[], taken: (name: string) => boolean, random: () => string): Step[] {
  const targets = new Set(renames.map((r) => r.to));
  const current = renames.map((r) => r.from);
  // Pending renames by the name their item has now, and by the name they want.
  const byName = new Map<string, number>();
  const wants = new Map<string, number>();
  renames.forEach((r, i) => {
    byName.set(r.from, i);
    wants.set(r.to, i);
  });
  const ready: number[] = [];
  renames.forEach((r, i) => {
    if (!byName.has(r.to)) ready.push(i);
  });
  const steps: Step[] = [];
  const temps = new Set<string>();
  /** Moves item i to `to`; whoever wanted the name it leaves can go next. */
  const move = (i: number, to: string, temporary: boolean) => {
    const from = current[i]!;
    steps.push({ from, to, item: i, temporary });
    byName.delete(from);
    current[i] = to;
    if (temporary) byName.set(to, i);
    const next = wants.get(from);
    if (next !== undefined && next !== i) ready.push(next);
  };
  // First in, first out: renames that do not wait on one another run in the order given (the listing's).
  let head = 0;
  while (byName.size) {
    if (head < ready.length) {
      const i = ready[head++]!;
      if (byName.get(current[i]!) === i) move(i, renames[i]!.to, false);
      continue;
    }
    // Each item moves at most twice (once aside, once home): anything more is a bug, not a reason to spin.
    if (steps.length >= 2 * renames.length) throw new Error('batch rename: no order found');
    // Only cycles remain: one of their items steps aside.
    const [, j] = byName.entries().next().value as [string, number];
    const temp = temporaryName((n) => taken(n) || targets.has(n) || temps.has(n), random);
    temps.add(temp);
    move(j, temp, true);
  }
  return steps;
}

/** Random lower-case letters and digits for temporary names. */
export function randomTag(length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
}

/**
 * The steps that take back what a batch did, given `done` (every step that went through, in order, the way back of a
 * parked item included) and `at` (the name each item has now). Only items that reached their new name are reversed:
 * their steps, undone in the reverse order, each meet the folder as the forward batch left it, so no new plan (and no
 * new temporary name) is needed. An item back at its old name has nothing to undo. An item still parked under a
 * temporary name is offered its old name last, after everything that could stand in its way has moved back.
 */
export function undoSteps(renames: readonly Rename[], done: readonly Step[], at: readonly string[]): Step[] {
  const renamed = (i: number) => at[i] === renames[i]!.to;
  const temps = new Set(done.filter((s) => s.temporary).map((s) => s.to));
  const back = done
    .filter((s) => renamed(s.item))
    .reverse()
    .map((s): Step => ({ from: s.to, to: s.from, item: s.item, temporary: temps.has(s.from) }));
  at.forEach((now, i) => {
    if (now !== renames[i]!.from && !renamed(i)) back.push({ from: now, to: renames[i]!.from, item: i, temporary: false });
  });
  return back;
}
