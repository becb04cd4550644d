import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { folderKey, listingFocus, returnListingFocus, takeListingFocus } from '../../state/listing-focus.state';
import { prompts } from '../../state/prompts.state';
import { moveCursor, selectOnly } from '../../state/selection.state';
import type { ShownOrder } from './listing-order';
import { focusWhenRendered } from './focus-item';
import type { RowsApi } from './virtual-rows';

/**
 * Carries out a focus request (state/listing-focus.state.ts) for this folder once no prompt is open and the item
 * has arrived: scrolled to (it need not be rendered yet), made the cursor (and selected when asked), focused.
 */
export function useFocusReturn(folder: WebResource, shown: ShownOrder, partial: boolean, rows: RefObject<RowsApi | null>, container: RefObject<HTMLElement | null>): void {
  const { want } = useSnapshot(listingFocus);
  const promptOpen = useSnapshot(prompts).current !== null;
  const items = folder.items;

  useEffect(() => {
    if (!want || promptOpen || !items || want.folder !== folderKey(folder.path)) return;
    const named = want.name === null ? -1 : items.findIndex((i) => i.name === want.name);
    let pos = named >= 0 ? (shown.position[named] ?? -1) : -1;
    let select = want.select;
    if (pos < 0) {
      // A big folder still arriving may bring the item later.
      if (want.name !== null && partial) return;
      if (want.pos === null || !shown.order.length) return takeListingFocus();
      pos = Math.min(want.pos, shown.order.length - 1);
      // The item is gone (deleted, moved away): the one now in its place takes over, selected, so Del goes on;
      // unless a background reload took it, when the selection stays as the user left it.
      select ||= want.name !== null && !want.keepSelection;
    }
    takeListingFocus();
    const index = shown.order[pos]!;
    if (select) selectOnly(index);
    else moveCursor(index);
    rows.current?.scrollToPos(pos);
    focusWhenRendered(container.current, index);
  }, [want, promptOpen, items, folder.path, shown, partial, rows, container]);

  useKeepFocusOnReload(items, partial, container);
}

/**
 * A reload (a job ended, a file changed) must not drop the keyboard focus. Rows are recycled by place, so an item
 * that moves to another row (a new folder sorted in before it) is a new element, and removing the focused one
 * leaves the focus on <body>. When the listing held the focus and a commit that brought new items lost it, the
 * focus goes back through the one request (to the item, or to the one now in its place). Focus lost without a
 * reload (the focused item scrolled out of the rendered window) is the user's doing and is left alone, as is focus
 * lost while a big folder arrives.
 */
function useKeepFocusOnReload(items: WebResource['items'], partial: boolean, container: RefObject<HTMLElement | null>): void {
  const holds = useRef(false);
  const seen = useRef(items);
  const seenPartial = useRef(partial);
  useEffect(() => {
    const box = container.current;
    if (!box) return;
    const into = () => void (holds.current = true);
    const out = (e: FocusEvent) => {
      const to = e.relatedTarget;
      if (to instanceof Node) return void (holds.current = box.contains(to));
      // Nowhere: a press on no focusable thing, or (Chromium) the focused element being removed, which blurs it
      // while still connected. The commit removing it runs its layout effects before this microtask.
      const from = e.target as Node;
      queueMicrotask(() => {
        if (from.isConnected) holds.current = false;
      });
    };
    box.addEventListener('focusin', into);
    box.addEventListener('focusout', out);
    return () => {
      box.removeEventListener('focusin', into);
      box.removeEventListener('focusout', out);
    };
  }, [container]);
  // After every commit, so that the hold also ends when the item leaves without a reload (scrolled away).
  useLayoutEffect(() => {
    // A big folder arriving (and its last part) moves no item from its place: new items then are not a reload,
    // and the focus left with the user (End, far down, waits for its item there: focus-item.ts).
    const reloaded = seen.current !== items && !partial && !seenPartial.current;
    seen.current = items;
    seenPartial.current = partial;
    const active = document.activeElement;
    if (!holds.current || (active && active !== document.body)) return;
    holds.current = false;
    if (reloaded) returnListingFocus(true);
  });
}
