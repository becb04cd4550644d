import { useCallback, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebResource } from '../../api/resources';
import { isShortcutCharacter, matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { selectOnly } from '../../state/selection.state';
import { files } from '../../state/files.state';
import { shownOrder, type ShownOrder } from './listing-order';
import { seekNames } from './jump-ahead';
import { findByPrefix, holeBefore, nameCollator, TypedPrefix } from './type-to-jump';
import { focusWhenRendered } from './focus-item';
import type { RowsApi } from './virtual-rows';

/**
 * Type-to-jump (SHORTCUTS.jump), for the listing's capture phase: letters typed in quick succession select and
 * focus the next item whose name starts with them, in the shown order, rendered or not. A space continues a
 * prefix but otherwise stays the item's toggle; characters that are shortcuts themselves ('?') are left alone.
 */
export function useTypeToJump(items: readonly (WebResource | undefined)[], shown: ShownOrder, rows: RefObject<RowsApi | null>, container: RefObject<HTMLElement | null>) {
  const { i18n } = useTranslation();
  const typed = useRef(new TypedPrefix());
  const miss = useRef<{ order: Int32Array; prefix: string } | null>(null);
  /** Jumps started: one waiting for ranges is dropped when another key came meanwhile. */
  const jumps = useRef(0);
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
      const start = at < 0 ? 0 : at + (fromNext ? 1 : 0);
      const go = (order: ArrayLike<number>, pos: number) => {
        if (pos < 0) return;
        const index = order[pos]!;
        selectOnly(index);
        rows.current?.scrollToPos(pos);
        focusWhenRendered(container.current, index);
      };
      const pos = findByPrefix((i) => all[i]?.name ?? '', view.order, start, prefix, nameCollator(lang));
      const ticket = ++jumps.current;
      if (files.partial && holeBefore((i) => all[i] !== undefined, view.order, start, pos)) {
        // The next match may lie among places that have not arrived (a big folder still streaming): the folder is
        // halved for it first (jump-ahead.ts), then searched again as it stands; a key typed meanwhile wins.
        void seekNames(prefix, lang).then(() => {
          if (ticket !== jumps.current) return;
          const folder = files.resource;
          const places = folder?.slots ?? folder?.items ?? [];
          // No filter: one would hide the places that have not arrived, and there would have been none to seek.
          const order = shownOrder(places, '', folder?.numDirs).order;
          go(order, findByPrefix((i) => places[i]?.name ?? '', order, start, prefix, nameCollator(lang)));
        });
        return;
      }
      miss.current = pos < 0 ? { order: view.order, prefix } : null;
      go(view.order, pos);
    },
    [rows, container],
  );
}
