import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { pageConfig } from '../../api/page-config';
import { auth } from '../../state/auth.state';
import { clipboard } from '../../state/clipboard.state';
import { files, wantItems } from '../../state/files.state';
import { filterFor, listingFilter } from '../../state/listing-filter.state';
import { noteListingFocus, returnListingFocus } from '../../state/listing-focus.state';
import { goTo, rawAppPath } from '../../state/navigation';
import { prompts } from '../../state/prompts.state';
import { addSelected, keepSelected, removeSelected, resetSelection, selection, selectOnly, selectRange } from '../../state/selection.state';
import '../../styles/files.css';
import type { ItemHandlers } from './listing-item';
import { shownOrder } from './listing-order';
import { ListingToolbar } from './listing-toolbar';
import { ContextMenu, type ContextMenuState } from './context-menu';
import { EmptyFolder } from './empty-folder';
import { SortBar } from './sort-bar';
import { ITEMS_DRAG_TYPE, useListingDrop } from './use-listing-drop';
import { useListingFocus } from './use-listing-focus';
import { useListingKeys } from './use-listing-keys';
import { useTouchPress } from './use-touch-press';
import { VirtualRows, type RowsApi } from './virtual-rows';

const MODE_CLASS = { list: 'list', mosaic: 'mosaic', 'mosaic gallery': 'gallery' } as const;

/**
 * A folder's items: the count and filter box, sort headers, a Folders and a Files section (or the 'lonely'
 * message), selection by mouse and keyboard, drag and drop. The rows are virtualised (VirtualRows): rendering
 * costs the same for 50 items as for 100,000, and the selection is one Set of indexes, not a flag per item.
 */
export function Listing({ folder }: { folder: WebResource }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const { selected, multiple, cursor } = useSnapshot(selection);
  const { partial } = useSnapshot(files);
  const filter = filterFor(useSnapshot(listingFilter), folder.path);
  const clip = useSnapshot(clipboard);
  const container = useRef<HTMLDivElement>(null);
  const rowsApi = useRef<RowsApi>(null);
  // While a big folder arrives, every place of it (its count is known from its first page), else its items.
  const items = folder.slots ?? folder.items ?? [];
  const shown = shownOrder(items, filter, folder.numDirs);
  const cut = useMemo(() => new Set(clip.key === 'x' ? clip.items.map((i) => i.from) : []), [clip.key, clip.items]);
  const mode = user?.viewMode ?? 'list';
  const folderPath = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  const canUpload = !!user?.perm.create;
  const canMove = !!user?.perm.rename;
  const drop = useListingDrop({ items, selected, folder: folderPath, canUpload, canMove });
  const onKeys = useListingKeys(shown, rowsApi, container);
  const focus = useListingFocus(folder, shown, partial, rowsApi, container);
  const [menu, setMenu] = useState<ContextMenuState | null>(null);
  // The focus comes back through the listing's one focus request (state/listing-focus.state.ts): to the item the
  // menu was opened on, or to the one now in its place. A prompt the action opened returns it when it closes.
  const closeMenu = useCallback((refocus: boolean) => {
    setMenu(null);
    if (refocus && !prompts.current) returnListingFocus();
  }, []);
  /**
   * Opens the context menu for an item: it joins the selection first unless it is already part of it, and it is
   * noted as the item to return to (a right-click need not have focused it).
   */
  const openMenu = (el: HTMLElement, x: number, y: number) => {
    const index = Number(el.dataset.index);
    if (!user || !Number.isInteger(index)) return;
    if (!selection.selected.has(index)) selectOnly(index);
    noteListingFocus(folder.path, el.dataset.name ?? '', shown.position[index] ?? 0);
    const chosen = [...selection.selected].map((i) => items[i]).filter((i): i is WebResource => !!i);
    setMenu({ x, y, ctx: { user, folder, selected: chosen } });
  };
  const onContextMenu = (e: MouseEvent<HTMLDivElement>) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('[data-testid=item]');
    if (!el) return;
    e.preventDefault();
    openMenu(el, e.clientX, e.clientY);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      const el = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-testid=item]');
      if (el && container.current?.contains(el)) {
        e.preventDefault();
        const r = el.getBoundingClientRect();
        openMenu(el, r.left + Math.min(24, r.width / 2), r.bottom);
        return;
      }
    }
    onKeys(e);
  };

  // Items the filter hides leave the selection, so that no action reaches what is not on show.
  useEffect(() => {
    if (filter) keepSelected(new Set(shown.order));
  }, [filter, shown]);

  // Handlers read the latest values through a ref so that memoised items do not re-render on every change.
  const live = useRef({ shown, singleClick: false, items, multiple });
  live.current = { shown, singleClick: !!user?.singleClick, items, multiple };

  const open = useCallback((item: WebResource) => {
    if (rawAppPath() !== item.url) goTo(item.url);
  }, []);
  // Touch: a tap opens; a long-press selects and starts touch selection mode, in which taps add and remove items
  // until the selection is empty again. Multiple-selection mode counts as selection mode too.
  const touchMode = useRef(false);
  const { touchedRecently } = useTouchPress(container, {
    onTap(index) {
      const sel = selection.selected;
      if (sel.size && (touchMode.current || selection.multiple)) return sel.has(index) ? removeSelected(index) : addSelected(index);
      touchMode.current = false;
      const item = live.current.items[index];
      if (item) open(item);
    },
    onLongPress(index) {
      if (touchMode.current && selection.selected.size) addSelected(index);
      else selectOnly(index);
      touchMode.current = true;
    },
  });
  const onClick = useCallback(
    (index: number, e: MouseEvent | KeyboardEvent) => {
      if (e.type === 'click') {
        // Touch input belongs to useTouchPress (a browser without pointer clicks gets none within its window).
        const kind = (e.nativeEvent as PointerEvent).pointerType;
        if (kind === 'touch' || (!kind && touchedRecently())) return;
      }
      const { singleClick, shown: now, items: all, multiple: many } = live.current;
      if (singleClick && !many && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.type === 'click') {
        const item = all[index];
        if (item) open(item);
        return;
      }
      // The second click of a double click only opens (onDoubleClick); it must not undo the first one.
      if (e.type === 'click' && (e as MouseEvent).detail >= 2) return;
      const sel = selection.selected;
      if (e.shiftKey && sel.size > 0) return selectRange(now.order, now.position, index, e.ctrlKey || e.metaKey || many);
      if (sel.has(index)) {
        if (e.ctrlKey || e.metaKey || many || sel.size === 1) removeSelected(index);
        else selectOnly(index);
        return;
      }
      if (e.ctrlKey || e.metaKey || many) return addSelected(index);
      selectOnly(index);
    },
    [open, touchedRecently],
  );
  const onDragStart = useCallback((index: number, e: DragEvent) => {
    // A finger held on an item is a long-press (selection), not the start of a drag.
    if (touchedRecently()) return e.preventDefault();
    if (!selection.selected.has(index)) selectOnly(index);
    e.dataTransfer.setData(ITEMS_DRAG_TYPE, String(selection.selected.size));
    e.dataTransfer.effectAllowed = 'move';
  }, [touchedRecently]);
  const handlers = useMemo<ItemHandlers>(() => ({ onClick, onOpen: open, onDragStart }), [onClick, open, onDragStart]);
  const thumbs = pageConfig.EnableThumbs && !!user?.perm.download;
  const exactDates = !!user?.dateFormat;
  const shared = useMemo(() => ({ draggable: canMove, thumbs, exactDates, handlers }), [canMove, thumbs, exactDates, handlers]);
  const titles = useMemo(() => ({ dirs: t('files.folders'), files: t('files.files') }), [t]);

  return (
    <>
      {items.length > 0 && <ListingToolbar folder={folder.path} filter={filter} total={items.length} shown={shown.order.length} partial={partial} />}
      <div
        ref={container}
        className={`listing listing--${MODE_CLASS[mode] ?? 'list'}${drop.dragging ? ' is-dragging' : ''}`}
        data-testid="listing"
        data-mode={mode}
        data-total={items.length}
        data-shown={shown.order.length}
        onClick={(e) => {
          if (e.target === e.currentTarget) resetSelection();
        }}
        onKeyDown={onKeyDown}
        onKeyDownCapture={focus.onKeyDownCapture}
        onFocus={focus.onFocus}
        onContextMenu={onContextMenu}
        {...drop.handlers}
      >
        {items.length === 0 ? (
          <EmptyFolder path={folder.path} />
        ) : (
          <>
            <SortBar sorting={folder.sorting} />
            {shown.order.length === 0 && (
              <p className="listing__empty" data-testid="no-matches">
                {t('files.noMatches', { filter })}
              </p>
            )}
            <VirtualRows items={items} shown={shown} mode={mode} label={t('files.contents')} titles={titles} selected={selected} cursor={cursor} cut={cut} dropTarget={drop.target} shared={shared} api={rowsApi} onMissing={wantItems} />
          </>
        )}
        {drop.dragging && (
          <div className="listing__drop-hint" aria-hidden="true">
            {t('files.dropHere')}
          </div>
        )}
      </div>
      {menu && <ContextMenu state={menu} onClose={closeMenu} />}
    </>
  );
}
