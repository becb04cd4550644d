import type { ViewMode } from '../../../server/contract/user';

/** A row of the virtualised listing: a section heading, or up to `cols` items (places in the shown order). */
export type ListingRow =
  | { kind: 'heading'; section: 'dirs' | 'files'; first: boolean }
  | { kind: 'items'; section: 'dirs' | 'files'; from: number; to: number; first: boolean; last: boolean };

/** Tiles per row from the width: the grids the mosaic and gallery CSS described with auto-fill before. */
const GRID: Record<Exclude<ViewMode, 'list'>, { min: number; narrowMin: number; gap: number }> = {
  mosaic: { min: 280, narrowMin: 280, gap: 10 },
  'mosaic gallery': { min: 200, narrowMin: 150, gap: 14 },
};
/** Below this width the gallery keeps two cards a row (phones). */
const NARROW = 560;

export function columnsFor(mode: ViewMode, width: number): number {
  if (mode === 'list' || width <= 0) return 1;
  const g = GRID[mode] ?? GRID.mosaic;
  const min = width < NARROW ? g.narrowMin : g.min;
  return Math.max(1, Math.floor((width + g.gap) / (min + g.gap)));
}

/** The gap between tiles (and between rows of tiles), in pixels. */
export function gapFor(mode: ViewMode, width: number): number {
  if (mode === 'list') return 0;
  return width < NARROW ? 10 : (GRID[mode] ?? GRID.mosaic).gap;
}

/**
 * The listing as rows, computed from counts alone (no array of rows): a Folders heading and ceil(dirs / cols)
 * rows, then a Files heading and ceil(files / cols) rows. O(1) per row, whatever the folder's size.
 */
export class ListingRows {
  readonly count: number;
  private readonly dirRows: number;
  private readonly fileRows: number;
  private readonly filesStart: number;

  constructor(
    readonly dirs: number,
    readonly files: number,
    readonly cols: number,
  ) {
    this.dirRows = dirs ? 1 + Math.ceil(dirs / cols) : 0;
    this.fileRows = files ? 1 + Math.ceil(files / cols) : 0;
    this.filesStart = this.dirRows;
    this.count = this.dirRows + this.fileRows;
  }

  at(r: number): ListingRow {
    const inDirs = r < this.dirRows;
    const section = inDirs ? 'dirs' : 'files';
    const local = inDirs ? r : r - this.filesStart;
    if (local === 0) return { kind: 'heading', section, first: r === 0 };
    const size = inDirs ? this.dirs : this.files;
    const base = inDirs ? 0 : this.dirs;
    const from = (local - 1) * this.cols;
    const to = Math.min(size, from + this.cols);
    return { kind: 'items', section, from: base + from, to: base + to, first: local === 1, last: to === size };
  }

  /** The row holding the item at place `pos` of the shown order. */
  rowOf(pos: number): number {
    if (pos < this.dirs) return 1 + Math.floor(pos / this.cols);
    return this.filesStart + 1 + Math.floor((pos - this.dirs) / this.cols);
  }
}
