import { useEffect, type RefObject } from 'react';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { folderKey, listingFocus, takeListingFocus } from '../../state/listing-focus.state';
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
      // The item is gone (deleted, moved away): the one now in its place takes over, selected, so Del goes on.
      select ||= want.name !== null;
    }
    takeListingFocus();
    const index = shown.order[pos]!;
    if (select) selectOnly(index);
    else moveCursor(index);
    rows.current?.scrollToPos(pos);
    focusWhenRendered(container.current, index);
  }, [want, promptOpen, items, folder.path, shown, partial, rows, container]);
}
