import { useCallback, useEffect, useRef, useState } from 'react';

/** A panel whose work has all ended folds to its header after this long (about 5 s, issue: panels on a phone). */
export const AUTO_COLLAPSE_MS = 5000;

export interface AutoCollapse {
  open: boolean;
  /** The header's expand/collapse button. */
  toggle(): void;
  /** On the panel's root: finds whether the focus is inside, and notes when the user looks at it. */
  panel: {
    ref(el: HTMLElement | null): void;
    onPointerEnter(e: { pointerType: string }): void;
    onPointerLeave(e: { pointerType: string }): void;
    onFocus(): void;
    onBlur(): void;
  };
}

/**
 * The open/closed state of a floating panel (jobs, uploads). Rules:
 * - it opens when work appears, and folds by itself AUTO_COLLAPSE_MS after every item has ended;
 * - not while a failure is unseen: a failure counts as seen once the user points at, taps, focuses or toggles the
 *   open panel (a failure that folds away unread is a failure lost);
 * - not while a mouse rests on it or the focus is in it (the timer starts again when they leave);
 * - not after the user opened it again, until new work starts; a panel the user folded stays folded.
 * `ids` names the items on show and `failures` the failed ones, so that a new item or failure is new again.
 */
export function useAutoCollapse(ids: readonly (string | number)[], settled: boolean, failures: readonly (string | number)[]): AutoCollapse {
  const [open, setOpen] = useState(true);
  const [pinned, setPinned] = useState(false);
  const [folded, setFolded] = useState(false); // folded by the timer (not by the user): new work opens it again
  const [hovered, setHovered] = useState(false);
  const [restart, setRestart] = useState(0);
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => new Set());
  const el = useRef<HTMLElement | null>(null);
  const failed = failures.map(String);
  const unseen = failed.some((f) => !seen.has(f));
  const key = failed.join('\n');
  const markSeen = useCallback(() => setSeen(new Set(key.split('\n'))), [key]);

  // New work undoes an automatic fold and the user's "keep open": an item not there before (even one that ended
  // before the panel saw it run), or the panel busy again. The first work after an empty panel starts afresh.
  const idKey = ids.join('\n');
  const before = useRef({ ids: new Set(ids.map(String)), settled });
  useEffect(() => {
    const was = before.current;
    const now = new Set(idKey ? idKey.split('\n') : []);
    before.current = { ids: now, settled };
    if (!was.ids.size && now.size) {
      setOpen(true);
      setPinned(false);
      setFolded(false);
    } else if ([...now].some((id) => !was.ids.has(id)) || (was.settled && !settled)) {
      setPinned(false);
      if (folded) {
        setOpen(true);
        setFolded(false);
      }
    }
  }, [idKey, settled, folded]);

  // The wait: AUTO_COLLAPSE_MS of everything ended, nothing unseen, nobody on the panel. A changed list of items
  // (idKey) starts it again, so a job that ended just now is on show for the whole wait.
  useEffect(() => {
    if (!open || !settled || pinned || hovered || unseen) return;
    const timer = setTimeout(() => {
      // The focus in the panel holds it open; leaving it (blur) starts the wait again.
      if (el.current?.matches(':focus-within')) return;
      setOpen(false);
      setFolded(true);
    }, AUTO_COLLAPSE_MS);
    return () => clearTimeout(timer);
  }, [open, settled, pinned, hovered, unseen, restart, idKey]);

  const toggle = useCallback(() => {
    markSeen();
    setFolded(false);
    setPinned(!open);
    setOpen(!open);
  }, [open, markSeen]);

  const look = () => {
    if (open && unseen) markSeen();
  };
  return {
    open,
    toggle,
    panel: {
      ref: (node) => void (el.current = node),
      // A touch "enters" on a tap and leaves at once: it counts as a look, never as a resting pointer.
      onPointerEnter: (e) => {
        look();
        if (e.pointerType === 'mouse') setHovered(true);
      },
      onPointerLeave: (e) => {
        if (e.pointerType === 'mouse') setHovered(false);
      },
      onFocus: look,
      onBlur: () => setRestart((n) => n + 1),
    },
  };
}
