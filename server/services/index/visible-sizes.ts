import { below, type NameIndexStore, type SizeRow } from '../../db/name-index.store';
import type { Actor, Beneath } from '../actor';
import { visible } from '../policy/file-policy';

/**
 * Folder sizes per caller: the bytes beneath a folder that this actor could reach by listing down from it, never
 * the bytes of what its rules or dotfile hiding hide. One index serves every user, so each size is the folder's
 * total minus the totals of its hidden subtrees ("hidden roots": hidden entries with no hidden folder between them
 * and the folder). Visibility is always asked of the actor (`allows`, `rulesAllow`: the rules' one home); the
 * index only says where to ask:
 * - nothing hides anything beneath (`actor.beneath`): the stored totals as they are (one lookup each);
 * - path rules only: a denied rule path is a hidden root (without regexes, a path shares the answer of its
 *   deepest rule path), one lookup per rule; hidden dotfiles add the dot-named entries (their own index);
 * - any regex rule: every entry beneath is asked, hidden subtrees skipped in one jump each.
 * Reading rows is bounded (rows and time, on the event loop): past the bound a size is left out, never guessed.
 */

/** Rows per query, and the bound on one folder's work (rows looked at, milliseconds). */
const PAGE = 256;
export const SIZE_BOUND = { rows: 20_000, ms: 25 };

export interface VisibleSizes {
  /** Bytes the actor can see beneath the folder; absent when the bound was reached. */
  own?: number;
  /** The same for each sub-folder, by name; a folder the bound left unread is missing. */
  children: Map<string, number>;
}

const bytes = (r: SizeRow) => (r.is_dir ? (r.total ?? 0) : r.size);

/** Whether one of `path`'s ancestors strictly below the folder (`skip` = its index path's length) is in `roots`. */
function underAny(roots: Set<string>, path: string, skip: number): boolean {
  for (let i = path.indexOf('/', skip + 1); i > 0; i = path.indexOf('/', i + 1)) if (roots.has(path.slice(0, i))) return true;
  return false;
}

/**
 * Reads the entries beneath the folder `at` in path order (only dot-named ones with `dotsOnly`), adding those
 * `isHidden` calls hidden (and not already inside a hidden root) to `hidden`. Returns null when everything was
 * read, or the path from which nothing was read when the bound stopped it.
 */
function scan(store: NameIndexStore, at: string, dotsOnly: boolean, isHidden: (r: SizeRow) => boolean, hidden: SizeRow[], bound: typeof SIZE_BOUND): string | null {
  const [lo, hi] = below(at);
  // Hidden folders whose subtree has not been reached yet. A subtree is one range that starts after its folder,
  // so the first entry inside it is where the whole range is skipped (and the folder leaves this list).
  const pending = hidden.filter((r) => r.is_dir).map((r) => `${r.path}/`);
  const deadline = performance.now() + bound.ms;
  let from = `${lo}\0`; // NUL sorts first and occurs in no name: everything strictly after `lo`
  for (let read = 0; ; ) {
    if (read >= bound.rows || performance.now() > deadline) return from;
    const limit = Math.min(PAGE, bound.rows - read);
    const rows = store.range(from, hi, limit, dotsOnly);
    let jump: string | null = null;
    for (const r of rows) {
      read++; // rows looked at: a skipped subtree costs one row, whatever its size
      const inside = pending.length ? pending.findIndex((p) => r.path.startsWith(p)) : -1;
      if (inside >= 0) {
        jump = `${pending[inside]!.slice(0, -1)}0`;
        pending.splice(inside, 1);
        break;
      }
      if (isHidden(r)) {
        hidden.push(r);
        if (r.is_dir) pending.push(`${r.path}/`);
      }
    }
    if (jump === null && rows.length < limit) return null;
    from = jump ?? `${rows[rows.length - 1]!.path}\0`;
  }
}

/** The hidden roots not inside another one (ancestors sort before their descendants; only folders hold any). */
function outermost(rows: SizeRow[], skip: number): SizeRow[] {
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const seen = new Set<string>(); // a rule path can also be a dot-named entry: counted once
  const kept = new Set<string>();
  return rows.filter((r) => {
    if (seen.has(r.path) || (kept.size && underAny(kept, r.path, skip))) return false;
    seen.add(r.path);
    if (r.is_dir) kept.add(r.path);
    return true;
  });
}

/** SQLite compares text as UTF-8 bytes; JavaScript strings compare as UTF-16 units (they differ past U+FFFF). */
const notAfter = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) <= 0;

/**
 * What may hide something beneath the folder at virtual `path` for `actor`, and, when the folder was reached
 * through a link (`realPath`: the virtual path of its real location, ScopedFs.realPathOf), beneath that location
 * too: the rules hold at both (policy/file-policy.ts visible()).
 */
export function beneathBoth(actor: Actor, path: string, realPath?: string): Beneath & { realPaths: string[] } {
  const f = actor.beneath(path);
  if (realPath === undefined) return { ...f, realPaths: [] };
  const g = actor.beneath(realPath);
  return { ...f, regex: f.regex || g.regex, realPaths: g.paths };
}

/**
 * Sizes for `actor` of the folder at virtual `path` (index path `at`; `realPath` where it really is when reached
 * through a link) and of its sub-folders; null when the index does not hold that folder.
 */
export function visibleSizes(store: NameIndexStore, actor: Actor, path: string, at: string, bound = SIZE_BOUND, realPath?: string): VisibleSizes | null {
  const top = store.get(at);
  if (!top?.isDir) return null;
  const totals = store.childTotals(at);
  const f = beneathBoth(actor, path, realPath);
  if (!f.regex && !f.paths.length && !f.realPaths.length && !f.dotfiles) return { own: top.total, children: totals };

  const prefix = at === '/' ? '' : at;
  const vprefix = path === '/' ? '' : path;
  const rprefix = realPath === undefined || realPath === '/' ? '' : realPath;
  const hidden: SizeRow[] = [];
  let stop: string | null = null;
  if (f.regex) {
    const rel = (r: SizeRow) => r.path.slice(prefix.length);
    stop = scan(store, at, false, (r) => !visible(actor, vprefix + rel(r), realPath === undefined ? undefined : rprefix + rel(r)), hidden, bound);
  } else {
    // A denied rule path is a hidden root, whether it names the entry by its virtual path or by its real location.
    const denied = (rules: string[], from: string) => {
      for (const p of rules) {
        if (actor.rulesAllow(p)) continue;
        const r = store.get(prefix + p.slice(from.length));
        if (r) hidden.push({ path: r.path, is_dir: r.isDir ? 1 : 0, size: r.size, total: r.total });
      }
    };
    denied(f.paths, vprefix);
    denied(f.realPaths, rprefix);
    if (f.dotfiles) stop = scan(store, at, true, () => true, hidden, bound);
  }

  let own = top.total;
  const less = new Map<string, number>();
  for (const r of outermost(hidden, prefix.length)) {
    own -= bytes(r);
    const rel = r.path.slice(prefix.length + 1);
    const slash = rel.indexOf('/');
    if (slash > 0) less.set(rel.slice(0, slash), (less.get(rel.slice(0, slash)) ?? 0) + bytes(r));
  }
  const children = new Map<string, number>();
  for (const [name, total] of totals) {
    // A sub-folder's entries are the range [prefix/name/, prefix/name0): all read when that range ends before `stop`.
    if (stop === null || notAfter(`${prefix}/${name}0`, stop)) children.set(name, total - (less.get(name) ?? 0));
  }
  return stop === null ? { own, children } : { children };
}
