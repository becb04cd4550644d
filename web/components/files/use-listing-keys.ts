import { useCallback, useRef, type KeyboardEvent, type RefObject } from 'react';
import { matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { moveCursor, selection, selectOnly, selectRange } from '../../state/selection.state';
import type { ShownOrder } from './listing-order';
import { focusWhenRendered } from './focus-item';
import type { RowsApi } from './virtual-rows';

/**
 * The keyboard inside the listing (an item has the focus): arrows move by one item (by a row of tiles up and
 * down), Home/End to the first/last item, PageUp/PageDown by a window; plain keys select the item reached,
 * Shift extends a range from the anchor (Ctrl+Shift or multiple mode adds it), Ctrl moves without selecting.
 * Everything works by places in the shown order, so the items between need not be rendered.
 */
export function useListingKeys(shown: ShownOrder, rows: RefObject<RowsApi | null>, container: RefObject<HTMLElement | null>) {
  const latest = useRef(shown);
  latest.current = shown;
  return useCallback(
    (e: KeyboardEvent) => {
      const el = (e.target as HTMLElement).closest?.<HTMLElement>('[data-testid=item]');
      const api = rows.current;
      // The keys are those of SHORTCUTS.move/ends/page; Shift (extend) and Ctrl (cursor only) are read below.
      const bare = { key: e.key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: e.altKey };
      if (!el || !api || !(matchesAny(SHORTCUTS.move, bare) || matchesAny(SHORTCUTS.ends, bare) || matchesAny(SHORTCUTS.page, bare))) return;
      const { order, position } = latest.current;
      const pos = position[Number(el.dataset.index)] ?? -1;
      if (pos < 0 || !order.length) return;
      const cols = api.cols;
      const back = getComputedStyle(el).direction === 'rtl' ? 1 : -1;
      let next: number;
      switch (e.key) {
        case 'ArrowDown':
          next = pos + cols;
          break;
        case 'ArrowUp':
          next = pos - cols;
          break;
        case 'ArrowLeft':
          if (cols === 1) return;
          next = pos + back;
          break;
        case 'ArrowRight':
          if (cols === 1) return;
          next = pos - back;
          break;
        case 'Home':
          next = 0;
          break;
        case 'End':
          next = order.length - 1;
          break;
        case 'PageDown':
          next = pos + api.rowsPerPage() * cols;
          break;
        case 'PageUp':
          next = pos - api.rowsPerPage() * cols;
          break;
        default:
          return;
      }
      e.preventDefault();
      next = Math.max(0, Math.min(order.length - 1, next));
      const to = order[next]!;
      const add = e.ctrlKey || e.metaKey || selection.multiple;
      if (e.shiftKey) selectRange(order, position, to, add);
      else if (add) moveCursor(to);
      else selectOnly(to);
      api.scrollToPos(next);
      focusWhenRendered(container.current, to);
    },
    [rows, container],
  );
}
