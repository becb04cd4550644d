import { useCallback, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebResource } from '../../api/resources';
import { isShortcutCharacter, matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { selectOnly } from '../../state/selection.state';
import type { ShownOrder } from './listing-order';
import { findByPrefix, nameCollator, TypedPrefix } from './type-to-jump';
import { focusWhenRendered } from './focus-item';
import type { RowsApi } from './virtual-rows';

/**
 * Type-to-jump (SHORTCUTS.jump), for the listing's capture phase: letters typed in quick succession select and
 * focus the next item whose name starts with them, in the shown order, rendered or not. A space continues a
 * prefix but otherwise stays the item's toggle; characters that are shortcuts themselves ('?') are left alone.
 */
export function useTypeToJump(items: readonly WebResource[], shown: ShownOrder, rows: RefObject<RowsApi | null>, container: RefObject<HTMLElement | null>) {
  const { i18n } = useTranslation();
  const typed = useRef(new TypedPrefix());
  const miss = useRef<{ order: Int32Array; prefix: string } | null>(null);
  const latest = useRef({ items, shown, lang: i18n.language });
  latest.current = { items, shown, lang: i18n.language };
  return useCallback(
    (e: KeyboardEvent) => {
      const now = performance.now();
      if (!matchesAny(SHORTCUTS.jump, e) || isShortcutCharacter(e)) return;
      if (e.key === ' ' && !typed.current.active(now)) return;
      const el = (e.target as HTMLElement).closest?.<HTMLElement>('[data-testid=item]');
      if (!el) return;
      e.preventDefault();
      e.stopPropagation();
      const { items: all, shown: view, lang } = latest.current;
      const { prefix, fromNext } = typed.current.push(e.key, now);
      const at = view.position[Number(el.dataset.index)] ?? -1;
      // A prefix that found nothing cannot find anything longer in the same listing: skip the pass over it.
      const missed = miss.current;
      if (missed && missed.order === view.order && prefix.startsWith(missed.prefix)) return;
      const pos = findByPrefix((i) => all[i]?.name ?? '', view.order, at < 0 ? 0 : at + (fromNext ? 1 : 0), prefix, nameCollator(lang));
      miss.current = pos < 0 ? { order: view.order, prefix } : null;
      if (pos < 0) return;
      const index = view.order[pos]!;
      selectOnly(index);
      rows.current?.scrollToPos(pos);
      focusWhenRendered(container.current, index);
    },
    [rows, container],
  );
}
