import { proxy } from 'valtio/vanilla';

export interface ClipboardItem {
  /** Decoded virtual path of the item. */
  from: string;
  name: string;
  /** What the listing knew (a big selection is pasted as a background job). */
  isDir?: boolean;
  folderSize?: number;
}

interface ClipboardState {
  /** c = copy, x = cut; empty when nothing is held. */
  key: '' | 'c' | 'x';
  items: ClipboardItem[];
  /** The folder the items were taken from. */
  path: string;
}

/** Items held by Ctrl+C / Ctrl+X for a later Ctrl+V. */
export const clipboard = proxy<ClipboardState>({ key: '', items: [], path: '' });

export function holdItems(key: 'c' | 'x', items: ClipboardItem[], path: string): void {
  clipboard.key = key;
  clipboard.items = items;
  clipboard.path = path;
}

export function clearClipboard(): void {
  clipboard.key = '';
  clipboard.items = [];
  clipboard.path = '';
}
