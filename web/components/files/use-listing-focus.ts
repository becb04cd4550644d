import { useCallback, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import type { WebResource } from '../../api/resources';
import { matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { focusListingItem, noteListingFocus } from '../../state/listing-focus.state';
import type { ShownOrder } from './listing-order';
import { useFocusReturn } from './use-focus-return';
import { useTypeToJump } from './use-type-to-jump';
import type { RowsApi } from './virtual-rows';

const itemOf = (target: EventTarget) => (target as HTMLElement).closest?.<HTMLElement>('[data-testid=item]') ?? null;

/**
 * The listing's focus keeping (issue 16 item 3): notes the item with the focus (prompts and previews return to it),
 * carries out focus requests, type-to-jump, and Enter on a folder asks the next listing to focus its first item,
 * so the keyboard is never left on <body> after moving between folders.
 */
export function useListingFocus(folder: WebResource, shown: ShownOrder, partial: boolean, rows: RefObject<RowsApi | null>, container: RefObject<HTMLElement | null>) {
  const items = folder.slots ?? folder.items ?? [];
  useFocusReturn(folder, shown, partial, rows, container);
  const jump = useTypeToJump(items, shown, rows, container);

  const onFocus = useCallback(
    (e: FocusEvent) => {
      const el = itemOf(e.target);
      const index = Number(el?.dataset.index);
      if (el && Number.isInteger(index)) noteListingFocus(folder.path, el.dataset.name ?? '', shown.position[index] ?? 0);
    },
    [folder.path, shown],
  );

  const onKeyDownCapture = useCallback(
    (e: KeyboardEvent) => {
      const el = itemOf(e.target);
      if (el?.dataset.dir === 'true' && matchesAny(SHORTCUTS.open, e)) {
        const item = items[Number(el.dataset.index)];
        if (item) focusListingItem(item.path, null, false);
        return;
      }
      jump(e);
    },
    [items, jump],
  );

  return { onFocus, onKeyDownCapture };
}
