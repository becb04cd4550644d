/** Keys typed within this time of each other form one prefix (the platforms' list boxes use about a second). */
export const JUMP_WINDOW_MS = 700;

/**
 * The letters typed so far. A single letter, or the same letter repeated ("sss"), steps to the next item with
 * that initial on each press; a longer prefix ("sum") stays on the current item while it still matches.
 */
export class TypedPrefix {
  private typed = '';
  private at = -Infinity;

  /** Still collecting: a space then belongs to the name rather than toggling the selection. */
  active(now: number): boolean {
    return this.typed !== '' && now - this.at <= JUMP_WINDOW_MS;
  }

  push(ch: string, now: number): { prefix: string; fromNext: boolean } {
    if (!this.active(now)) this.typed = '';
    this.typed += ch;
    this.at = now;
    const first = [...this.typed][0]!;
    const repeated = [...this.typed].every((c) => c === first);
    return repeated ? { prefix: first, fromNext: true } : { prefix: this.typed, fromNext: false };
  }
}

const collators = new Map<string, Intl.Collator>();

/** Compares the way the user's language does, ignoring case and accents ("e" finds "Été"). */
export function nameCollator(lang: string): Intl.Collator {
  let c = collators.get(lang);
  if (!c) {
    c = new Intl.Collator(lang, { usage: 'search', sensitivity: 'base' });
    collators.set(lang, c);
  }
  return c;
}

/**
 * The place in `order` (item indexes in the shown order) of the first name starting with `prefix`, searching
 * from `start` and wrapping around; -1 when none does. Plain loops over the order: the items need not be rendered.
 */
export function findByPrefix(names: (index: number) => string, order: ArrayLike<number>, start: number, prefix: string, collator: Intl.Collator): number {
  const n = order.length;
  if (!n || !prefix) return -1;
  const from = ((start % n) + n) % n;
  for (let k = 0; k < n; k++) {
    const pos = (from + k) % n;
    const name = names(order[pos]!);
    if (name.length >= prefix.length && collator.compare(name.slice(0, prefix.length), prefix) === 0) return pos;
  }
  return -1;
}

const orderCollators = new Map<string, Intl.Collator>();

/** Compares names about as the server orders them (natural numbers, case and accents aside): to halve a sorted folder. */
export function orderCollator(lang: string): Intl.Collator {
  let c = orderCollators.get(lang);
  if (!c) {
    c = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' });
    orderCollators.set(lang, c);
  }
  return c;
}

/**
 * Whether a place of `order` from `start` on, up to (not including) `found` (-1: all the way round), has no item yet
 * (a big folder still arriving): a match found beyond such a place may not be the next one.
 */
export function holeBefore(has: (index: number) => boolean, order: ArrayLike<number>, start: number, found: number): boolean {
  const n = order.length;
  if (!n) return false;
  const from = ((start % n) + n) % n;
  const steps = found < 0 ? n : (found - from + n) % n;
  for (let k = 0; k < steps; k++) if (!has(order[(from + k) % n]!)) return true;
  return false;
}
