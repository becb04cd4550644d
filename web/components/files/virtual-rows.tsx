import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type Ref } from 'react';
import type { ViewMode } from '../../../server/contract/user';
import type { WebResource } from '../../api/resources';
import { ListingItem, type ListingItemProps } from './listing-item';
import type { ListingPlaces, ShownOrder } from './listing-order';
import { ListingPlaceholder } from './listing-placeholder';
import { columnsFor, gapFor, ListingRows } from './listing-rows';
import { focusWhenRendered } from './focus-item';
import { bottomStackCover } from '../layout/use-published-size';

/** Rows rendered beyond the window on each side: enough for a fast wheel, few enough to stay cheap. */
const OVERSCAN = 6;
const HEADING_HEIGHT = 28;
/** Space above the Files heading when folders come before it (the sections' gap). */
const SECTION_GAP = 20;
const MAX_ESTIMATE_CHANGES = 8;

/** What the keyboard needs from the rows: their geometry and a way to bring an item into view. */
export interface RowsApi {
  cols: number;
  /** Item rows that fit in the window (PageUp/PageDown). */
  rowsPerPage(): number;
  scrollToPos(pos: number): void;
}

type Shared = Omit<ListingItemProps, 'item' | 'selected' | 'cut' | 'dropTarget' | 'tabStop'>;

export interface VirtualRowsProps {
  /** The items by index; undefined where an item has not arrived yet (drawn as a placeholder). */
  items: ListingPlaces;
  shown: ShownOrder;
  mode: ViewMode;
  /** The listbox's accessible name. */
  label: string;
  titles: { dirs: string; files: string };
  selected: ReadonlySet<number>;
  /** The keyboard's item (selection cursor): the list's one Tab stop, else its first item. */
  cursor: number | null;
  cut: ReadonlySet<string>;
  dropTarget: number | null;
  shared: Shared;
  api: Ref<RowsApi>;
  /** Rendered rows hold places [from, to) (item indexes) whose items have not arrived: they should be asked for. */
  onMissing?: (from: number, to: number) => void;
}

/** A first guess at a row's height, by mode; the first row measured replaces it for every row not yet seen. */
function guessHeight(mode: ViewMode, width: number, cols: number, gap: number): number {
  if (mode === 'list') return 49;
  if (mode === 'mosaic') return 64 + gap;
  const card = (width - gap * (cols - 1)) / cols;
  return Math.round((card * 3) / 4 + 58 + gap);
}

/**
 * The listing's rows, virtualised against the window's scroll: the page is as tall as every row (so the
 * scrollbar reflects every item and End reaches the last), but only the rows in view, plus a few, are in
 * the DOM. Rows are uniform within a mode, so one measured row sets the height of all the others.
 */
export function VirtualRows({ items, shown, mode, label, titles, selected, cursor, cut, dropTarget, shared, api, onMissing }: VirtualRowsProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [margin, setMargin] = useState(0);
  const cols = columnsFor(mode, width);
  const gap = gapFor(mode, width);
  const rows = useMemo(() => new ListingRows(shown.dirs, shown.order.length - shown.dirs, cols), [shown, cols]);
  // One height per section: folder tiles have no size line, so their rows can be shorter than the files' rows.
  const rowHeight = useRef({ dirs: 0, files: 0 });
  /** Estimate changes since the layout last changed: capped, so rows that never agree cannot loop forever. */
  const changes = useRef(0);
  if (!rowHeight.current.dirs) rowHeight.current = { dirs: guessHeight(mode, width, cols, gap), files: guessHeight(mode, width, cols, gap) };

  // The width sets the columns; the box's place on the page is the virtualiser's scroll margin.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => {
      setWidth(el.clientWidth);
      setMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    if (el.parentElement) observer.observe(el.parentElement);
    return () => observer.disconnect();
  }, []);

  // Both stable while the rows and columns are: a new function at each render makes the virtualiser rebuild its
  // measurements of every row (25,000 rows of a 100,000-item folder: ~25 ms of each re-render, select-all included).
  // New rows (another order, filter or folder) do need them rebuilt: the key function changes with them.
  const estimateSize = useCallback(
    (r: number) => {
      const row = rows.at(r);
      return row.kind === 'heading' ? HEADING_HEIGHT + (row.first ? 0 : SECTION_GAP) : rowHeight.current[row.section];
    },
    [rows],
  );
  const getItemKey = useCallback((r: number) => `${cols}:${r}`, [cols, rows]); // eslint-disable-line react-hooks/exhaustive-deps
  const virtualizer = useWindowVirtualizer<HTMLDivElement>({
    count: rows.count,
    estimateSize,
    getItemKey,
    overscan: OVERSCAN,
    scrollMargin: margin,
    // The sticky header covers the top of the window.
    scrollPaddingStart: 72,
    // The selection bar and the panels above it cover the bottom of a phone's window (read at each render).
    scrollPaddingEnd: Math.max(80, bottomStackCover() + 16),
  });

  // A new mode or width changes every row's height: measure one again and let it stand for all.
  useLayoutEffect(() => {
    const guess = guessHeight(mode, width, cols, gap);
    rowHeight.current = { dirs: guess, files: guess };
    changes.current = 0;
    virtualizer.measure();
  }, [mode, width, cols, gap, virtualizer]);

  const measure = (el: HTMLDivElement | null) => {
    if (!el) return;
    const section = el.dataset.section as 'dirs' | 'files' | undefined;
    if (el.dataset.kind === 'items' && section) {
      // Whole pixels, as the virtualiser measures: a fraction would add up to a drift over 100,000 rows.
      const h = Math.round(el.getBoundingClientRect().height);
      if (h > 0 && h !== rowHeight.current[section] && changes.current++ < MAX_ESTIMATE_CHANGES) {
        rowHeight.current = { ...rowHeight.current, [section]: h };
        // Unmeasured rows take the new height; measured ones keep theirs.
        queueMicrotask(() => virtualizer.measure());
      }
    }
    virtualizer.measureElement(el);
  };

  useImperativeHandle(api, () => ({
    cols,
    rowsPerPage: () => Math.max(1, Math.floor((window.innerHeight - 72) / Math.max(1, rowHeight.current.files))),
    scrollToPos: (pos: number) => virtualizer.scrollToIndex(rows.rowOf(pos), { align: 'auto' }),
  }));

  // One Tab stop for the whole list (roving tabindex): the cursor item, or the first one. When that item is not
  // rendered, the listbox itself takes the Tab stop and hands the focus on to it (scrolled into view).
  const stop = cursor !== null && (shown.position[cursor] ?? -1) >= 0 ? cursor : (shown.order[0] ?? -1);
  const stopPos = stop < 0 ? -1 : shown.position[stop]!;
  const virtual = virtualizer.getVirtualItems();
  const stopRendered = virtual.some((v) => {
    const row = rows.at(v.index);
    return row.kind === 'items' && stopPos >= row.from && stopPos < row.to;
  });
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || stopPos < 0) return;
    virtualizer.scrollToIndex(rows.rowOf(stopPos), { align: 'auto' });
    focusWhenRendered(box.current, stop);
  };

  // Placeholders in the rendered rows: the smallest and largest index missing, asked for after the commit.
  let missFrom = Infinity;
  let missTo = -1;
  useEffect(() => {
    if (missTo >= 0) onMissing?.(missFrom, missTo + 1);
  });

  const template = cols > 1 ? { gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`, columnGap: gap, paddingBlockEnd: gap } : undefined;
  return (
    // The listbox holds only the rows (groups of options): the sort bar and the filter stay outside it. Heading
    // rows are visual only; each group of items carries its section's name.
    <div ref={box} className="listing__rows" role="listbox" aria-multiselectable="true" aria-label={label} style={{ height: virtualizer.getTotalSize() }} data-testid="listing-rows" data-cols={cols} tabIndex={stopRendered || stopPos < 0 ? undefined : 0} onFocus={onFocus}>
      {virtual.map((v) => {
        const row = rows.at(v.index);
        const style = { transform: `translateY(${v.start - virtualizer.options.scrollMargin}px)` };
        if (row.kind === 'heading') {
          return (
            <div key={v.key} ref={measure} data-index={v.index} data-kind="heading" aria-hidden="true" className={`listing__row listing__row--heading${row.first ? '' : ' is-later'}`} style={style}>
              <h2 className="listing__heading">{row.section === 'dirs' ? titles.dirs : titles.files}</h2>
            </div>
          );
        }
        const cls = `listing__row listing__row--items${row.first ? ' is-first' : ''}${row.last ? ' is-last' : ''}`;
        const cells: (WebResource | number)[] = [];
        for (let p = row.from; p < row.to; p++) {
          const index = shown.order[p]!;
          const item = items[index];
          cells.push(item ?? index);
          if (item) continue;
          missFrom = Math.min(missFrom, index);
          missTo = Math.max(missTo, index);
        }
        return (
          <div key={v.key} ref={measure} data-index={v.index} data-kind="items" data-section={row.section} role="group" aria-label={row.section === 'dirs' ? titles.dirs : titles.files} className={cls} style={{ ...style, ...template }}>
            {cells.map((item) =>
              typeof item === 'number' ? (
                <ListingPlaceholder key={`\u0000${item}`} index={item} />
              ) : (
                <ListingItem key={item.name} item={item} selected={selected.has(item.index)} tabStop={item.index === stop} cut={cut.has(item.path)} dropTarget={dropTarget === item.index} {...shared} />
              ),
            )}
          </div>
        );
      })}
    </div>
  );
}
