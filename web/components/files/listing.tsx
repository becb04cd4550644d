import { useCallback, useMemo, useRef, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { auth } from '../../state/auth.state';
import { clipboard } from '../../state/clipboard.state';
import { goTo, rawAppPath } from '../../state/navigation';
import { pageConfig } from '../../api/page-config';
import { addSelected, removeSelected, resetSelection, selection, selectOnly, selectRange } from '../../state/selection.state';
import '../../styles/files.css';
import { ListingItem, type ItemHandlers } from './listing-item';
import { EmptyFolder } from './empty-folder';
import { SortBar } from './sort-bar';
import { ITEMS_DRAG_TYPE, useListingDrop } from './use-listing-drop';
import { useRenderLimit } from './use-render-limit';

/** Two clicks within this window count as a double tap (spec §9). */
const DOUBLE_TAP_MS = 300;

const MODE_CLASS = { list: 'list', mosaic: 'mosaic', 'mosaic gallery': 'gallery' } as const;

interface SectionProps {
  title: string;
  items: readonly WebResource[];
  selected: ReadonlySet<number>;
  cut: ReadonlySet<string>;
  dropTarget: number | null;
  draggable: boolean;
  thumbs: boolean;
  exactDates: boolean;
  handlers: ItemHandlers;
}

function Section({ title, items, selected, cut, dropTarget, ...rest }: SectionProps) {
  if (items.length === 0) return null;
  return (
    <section className="listing__section">
      <h2 className="listing__heading">{title}</h2>
      <div className="listing__items" role="group" aria-label={title}>
        {items.map((item) => (
          <ListingItem key={item.name} item={item} selected={selected.has(item.index)} cut={cut.has(item.path)} dropTarget={dropTarget === item.index} {...rest} />
        ))}
      </div>
    </section>
  );
}

/**
 * A folder's items: sort headers, a Folders and a Files section (or the 'lonely' message), selection by mouse,
 * drag and drop. Only the first items are rendered and more are added while scrolling (useRenderLimit).
 */
export function Listing({ folder }: { folder: WebResource }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const { selected } = useSnapshot(selection);
  const clip = useSnapshot(clipboard);
  const container = useRef<HTMLDivElement>(null);
  const items = folder.items ?? [];
  const dirs = useMemo(() => items.filter((i) => i.isDir), [items]);
  const fileItems = useMemo(() => items.filter((i) => !i.isDir), [items]);
  const order = useMemo(() => [...dirs, ...fileItems].map((i) => i.index), [dirs, fileItems]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const cut = useMemo(() => new Set(clip.key === 'x' ? clip.items.map((i) => i.from) : []), [clip.key, clip.items]);
  const mode = user?.viewMode ?? 'list';
  // Only a new folder starts again from the first page; a reload of the same one keeps what was shown.
  const limit = useRenderLimit(items.length, folder.path, container);
  const folderPath = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  const canUpload = !!user?.perm.create;
  const canMove = !!user?.perm.rename;
  const drop = useListingDrop({ items, selected: selectedSet, folder: folderPath, canUpload, canMove });

  // Handlers read the latest values through a ref so that memoised items do not re-render on every change.
  const live = useRef({ order, singleClick: false, items });
  live.current = { order, singleClick: !!user?.singleClick, items };
  const taps = useRef({ index: -1, at: 0 });

  const open = useCallback((item: WebResource) => {
    if (rawAppPath() !== item.url) goTo(item.url);
  }, []);
  const onClick = useCallback(
    (index: number, e: MouseEvent | KeyboardEvent) => {
      const { singleClick, order: shown, items: all } = live.current;
      const multiple = selection.multiple;
      if (singleClick && !multiple && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.type === 'click') {
        const item = all[index];
        if (item) open(item);
        return;
      }
      // A second tap on the same item soon after the first opens it (touch screens may send no double click).
      const now = Date.now();
      const tap = taps.current;
      const touch = (e.nativeEvent as PointerEvent).pointerType === 'touch';
      taps.current = { index, at: now };
      if (touch && tap.index === index && now - tap.at < DOUBLE_TAP_MS) {
        const item = all[index];
        if (item) open(item);
        return;
      }
      // The second click of a double click only opens (onDoubleClick); it must not undo the first one.
      if (e.type === 'click' && (e as MouseEvent).detail >= 2) return;
      if (selection.selected.includes(index) && !e.shiftKey) {
        if (e.ctrlKey || e.metaKey || multiple || selection.selected.length === 1) removeSelected(index);
        else selectOnly(index);
        return;
      }
      if (e.shiftKey && selection.selected.length > 0) return selectRange(shown, index);
      if (e.ctrlKey || e.metaKey || multiple) return addSelected(index);
      selectOnly(index);
    },
    [open],
  );
  const onDragStart = useCallback((index: number, e: DragEvent) => {
    if (!selection.selected.includes(index)) selectOnly(index);
    e.dataTransfer.setData(ITEMS_DRAG_TYPE, String(selection.selected.length));
    e.dataTransfer.effectAllowed = 'move';
  }, []);
  const handlers = useMemo<ItemHandlers>(() => ({ onClick, onOpen: open, onDragStart }), [onClick, open, onDragStart]);

  const shownDirs = dirs.slice(0, limit);
  const shownFiles = limit > dirs.length ? fileItems.slice(0, limit - dirs.length) : [];
  const common = {
    selected: selectedSet,
    cut,
    dropTarget: drop.target,
    draggable: canMove,
    thumbs: pageConfig.EnableThumbs && !!user?.perm.download,
    exactDates: !!user?.dateFormat,
    handlers,
  };

  return (
    <div
      ref={container}
      className={`listing listing--${MODE_CLASS[mode] ?? 'list'}${drop.dragging ? ' is-dragging' : ''}`}
      role="listbox"
      aria-multiselectable="true"
      aria-label={t('files.contents')}
      data-testid="listing"
      data-mode={mode}
      data-total={items.length}
      onClick={(e) => {
        if (e.target === e.currentTarget) resetSelection();
      }}
      {...drop.handlers}
    >
      {items.length === 0 ? (
        <EmptyFolder path={folder.path} />
      ) : (
        <>
          <SortBar sorting={folder.sorting} />
          <Section title={t('files.folders')} items={shownDirs} {...common} />
          <Section title={t('files.files')} items={shownFiles} {...common} />
        </>
      )}
      {drop.dragging && (
        <div className="listing__drop-hint" aria-hidden="true">
          {t('files.dropHere')}
        </div>
      )}
    </div>
  );
}
