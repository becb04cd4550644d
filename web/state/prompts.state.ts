import { proxy, ref } from 'valtio/vanilla';
import type { Share } from '../../server/contract/share';
import type { WebResource } from '../api/resources';
import type { ArchiveFormat } from '../../server/contract/archive';

/** What each prompt needs when it opens. Items are copies taken at that moment. */
export interface PromptData {
  info: { items: WebResource[] };
  help: Record<string, never>;
  delete: { items: WebResource[]; onDone?: () => void };
  rename: { item: WebResource; onDone?: (newPath: string) => void };
  /** Several items of one folder (`folder` decoded, ending in '/'); `existing` is every name in it. */
  batchRename: { items: WebResource[]; folder: string; existing: string[] };
  move: { items: WebResource[]; from: string };
  copy: { items: WebResource[]; from: string };
  newFile: { base: string };
  newDir: { base: string };
  download: { onChoose: (format: ArchiveFormat) => void };
  /** Upload conflicts: replace the existing items, or keep both by renaming the new ones. */
  replace: { names: string[]; onReplace: () => void; onRename: () => void };
  /** Copy / move conflicts: overwrite, or let the server pick a free name. */
  replaceRename: { names: string[]; onOverwrite: () => void; onRename: () => void; onSkip?: () => void };
  /** Extract to…: pick the folder the archive's contents land in (a new folder named after it, inside). */
  extract: { item: WebResource; from: string };
  share: { item: WebResource };
  upload: { base: string };
  shareDelete: { share: Share; onConfirm: () => void };
  /** The in-app notifications (files arrived through a file request). */
  notifications: Record<string, never>;
  /** One link's edit form, access log or new-address confirmation, opened from the shares table. */
  shareManage: { share: Share; view: 'edit' | 'log' | 'regenerate'; onDone?: () => void };
  /** The Versions panel of one file. */
  versions: { item: WebResource };
}

export type PromptKind = keyof PromptData;
export type OpenPrompt = { [K in PromptKind]: { kind: K; data: PromptData[K] } }[PromptKind];

/** The one open prompt (or none). */
export const prompts = proxy<{ current: OpenPrompt | null; seq: number }>({ current: null, seq: 0 });

/** Opens a prompt, replacing any open one. The data is kept out of valtio (it holds callbacks and items). */
export function showPrompt<K extends PromptKind>(kind: K, ...[data]: PromptData[K] extends Record<string, never> ? [] : [PromptData[K]]): void {
  prompts.seq++;
  prompts.current = { kind, data: ref((data ?? {}) as object) } as OpenPrompt;
}

export function closePrompt(): void {
  prompts.current = null;
}
