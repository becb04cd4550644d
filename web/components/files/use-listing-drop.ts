import { useRef, useState, type DragEvent } from 'react';
import type { WebResource } from '../../api/resources';
import { transferItems } from '../../actions/transfer';
import { uploadInto } from '../../actions/upload';
import { captureDrop, dropEntries } from '../upload/scan-drop';

/** The drag type marking a drag of listing items (a move), as opposed to files from the desktop (an upload). */
export const ITEMS_DRAG_TYPE = 'application/x-filedeck-items';

const isFilesDrag = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
const isItemsDrag = (e: DragEvent) => Array.from(e.dataTransfer.types).includes(ITEMS_DRAG_TYPE);

/** The listing item under the pointer: the target or one of its first 5 parents (spec §4). */
function itemElement(target: EventTarget | null): HTMLElement | null {
  let el = target instanceof Element ? (target as HTMLElement) : null;
  for (let i = 0; i <= 5 && el; i++) {
    if (el.dataset?.testid === 'item') return el;
    el = el.parentElement;
  }
  return null;
}

export interface DropOptions {
  items: readonly (WebResource | undefined)[];
  selected: ReadonlySet<number>;
  /** Decoded path of the folder on show, ending in '/'. */
  folder: string;
  canUpload: boolean;
  canMove: boolean;
}

/**
 * Drag and drop on the listing: files from the desktop upload into the folder on show, or into the folder item
 * they are dropped on; listing items dropped on a folder item move there. A folder that is itself selected is
 * never a drop target.
 */
export function useListingDrop(opts: DropOptions) {
  const [dragging, setDragging] = useState(false);
  const [target, setTarget] = useState<number | null>(null);
  const depth = useRef(0);
  const latest = useRef(opts);
  latest.current = opts;

  const folderTarget = (e: DragEvent): WebResource | null => {
    const el = itemElement(e.target);
    if (!el || el.dataset.dir !== 'true') return null;
    const index = Number(el.dataset.index);
    const { items, selected } = latest.current;
    const item = items[index];
    return item && item.isDir && !selected.has(index) ? item : null;
  };

  const onDragEnter = (e: DragEvent) => {
    if (!isFilesDrag(e) || !latest.current.canUpload) return;
    depth.current++;
    setDragging(true);
  };
  const onDragLeave = (e: DragEvent) => {
    if (!isFilesDrag(e)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) {
      setDragging(false);
      setTarget(null);
    }
  };
  const onDragOver = (e: DragEvent) => {
    const files = isFilesDrag(e);
    const move = isItemsDrag(e);
    if ((files && !latest.current.canUpload) || (move && !latest.current.canMove) || (!files && !move)) return;
    const dest = folderTarget(e);
    setTarget(dest ? dest.index : null);
    if (move && !dest) return; // items can only be dropped on a folder
    e.preventDefault();
    e.dataTransfer.dropEffect = move ? 'move' : 'copy';
  };
  const onDrop = (e: DragEvent) => {
    const files = isFilesDrag(e);
    const move = isItemsDrag(e);
    const dest = folderTarget(e);
    depth.current = 0;
    setDragging(false);
    setTarget(null);
    if (!files && !move) return;
    e.preventDefault();
    const { items, selected, folder, canUpload, canMove } = latest.current;
    if (files && canUpload) {
      const contents = captureDrop(e.dataTransfer);
      void dropEntries(contents).then((entries) => uploadInto(entries, dest ? `${dest.path}/` : folder));
      return;
    }
    if (move && canMove && dest) {
      const moving = [...selected].map((i) => items[i]).filter((i): i is WebResource => !!i);
      void transferItems('rename', moving.map((i) => ({ from: i.path, name: i.name, isDir: i.isDir, folderSize: i.folderSize })), `${dest.path}/`);
    }
  };

  return { dragging, target, handlers: { onDragEnter, onDragLeave, onDragOver, onDrop } };
}
