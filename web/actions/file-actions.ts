import type en from '../../locales/en.json';
import type { Snapshot } from 'valtio';
import type { TokenUser } from '../../server/contract/user';
import type { WebResource } from '../api/resources';
import { cycleViewMode } from '../state/files.state';
import { pageConfig } from '../api/page-config';
import { showPrompt } from '../state/prompts.state';
import { openSearch } from '../state/search.state';
import { toggleMultiple } from '../state/selection.state';
import { toggleShell } from '../state/shell.state';
import { extractableFormat } from '../../server/contract/job';
import { extractHere } from '../state/jobs.state';
import { downloadItems } from './files';
import type { Combo } from './shortcuts';

/** What an action looks at: who acts, on which folder, with which items selected. */
export interface ActionContext {
  user: Snapshot<TokenUser>;
  /** The listing on show (a folder). */
  folder: WebResource;
  selected: readonly WebResource[];
}

export type ActionId = 'search' | 'view' | 'share' | 'rename' | 'copy' | 'move' | 'delete' | 'extract' | 'extractTo' | 'shell' | 'download' | 'upload' | 'info' | 'versions' | 'multiple';
export type ButtonKey = keyof (typeof en)['buttons'];
export type ActionIcon = 'search' | 'viewList' | 'viewMosaic' | 'viewGallery' | 'share' | 'rename' | 'copy' | 'move' | 'delete' | 'fileArchive' | 'shell' | 'download' | 'upload' | 'info' | 'history' | 'multiple';

/** One user action: its label, icon, when it is offered (spec §6), and what it does. */
export interface FileAction {
  id: ActionId;
  label: ButtonKey;
  icon: ActionIcon;
  /** Acts on the selection: on narrow screens it moves to the selection bar. */
  selection: boolean;
  /** The key that runs it from the files view; the help prompt and the context menu show it. */
  shortcut?: Combo;
  available(ctx: ActionContext): boolean;
  run(ctx: ActionContext): void;
}

const folderPath = (ctx: ActionContext) => (ctx.folder.path.endsWith('/') ? ctx.folder.path : `${ctx.folder.path}/`);
const some = (ctx: ActionContext) => ctx.selected.length > 0;
const one = (ctx: ActionContext) => ctx.selected.length === 1;
const oneArchive = (ctx: ActionContext) => ctx.user.perm.create && one(ctx) && !ctx.selected[0]!.isDir && !!extractableFormat(ctx.selected[0]!.name);
/** One item: the rename prompt; several: the batch rename prompt (its counter follows the listing's order). */
const openRename = (ctx: ActionContext) =>
  ctx.selected.length === 1
    ? showPrompt('rename', { item: ctx.selected[0]! })
    : showPrompt('batchRename', { items: [...ctx.selected], folder: folderPath(ctx), existing: (ctx.folder.items ?? []).map((i) => i.name) });

/** The header's actions, in display order. */
export const FILE_ACTIONS: readonly FileAction[] = [
  { id: 'search', label: 'search', icon: 'search', selection: false, shortcut: { key: 'f', ctrl: true }, available: () => true, run: (ctx) => openSearch(folderPath(ctx)) },
  { id: 'view', label: 'switchView', icon: 'viewList', selection: false, available: () => true, run: () => void cycleViewMode() },
  { id: 'share', label: 'share', icon: 'share', selection: true, available: (ctx) => ctx.user.perm.share && one(ctx), run: (ctx) => showPrompt('share', { item: ctx.selected[0]! }) },
  { id: 'rename', label: 'rename', icon: 'rename', selection: true, shortcut: { key: 'F2' }, available: (ctx) => ctx.user.perm.rename && some(ctx), run: openRename },
  { id: 'copy', label: 'copyFile', icon: 'copy', selection: true, available: (ctx) => ctx.user.perm.create && some(ctx), run: (ctx) => showPrompt('copy', { items: [...ctx.selected], from: folderPath(ctx) }) },
  { id: 'move', label: 'moveFile', icon: 'move', selection: true, available: (ctx) => ctx.user.perm.rename && some(ctx), run: (ctx) => showPrompt('move', { items: [...ctx.selected], from: folderPath(ctx) }) },
  { id: 'delete', label: 'delete', icon: 'delete', selection: true, shortcut: { key: 'Delete' }, available: (ctx) => ctx.user.perm.delete && some(ctx), run: (ctx) => showPrompt('delete', { items: [...ctx.selected] }) },
  // A background job: a folder named after the archive, beside it (keep both when the name is taken).
  { id: 'extract', label: 'extractHere', icon: 'fileArchive', selection: true, available: oneArchive, run: (ctx) => void extractHere(ctx.selected[0]!.path) },
  { id: 'extractTo', label: 'extractTo', icon: 'fileArchive', selection: true, available: oneArchive, run: (ctx) => showPrompt('extract', { item: ctx.selected[0]!, from: folderPath(ctx) }) },
  { id: 'shell', label: 'shell', icon: 'shell', selection: false, available: (ctx) => ctx.user.perm.execute && pageConfig.EnableExec, run: () => toggleShell() },
  { id: 'download', label: 'download', icon: 'download', selection: true, shortcut: { key: 's', ctrl: true }, available: (ctx) => ctx.user.perm.download, run: (ctx) => downloadItems(ctx.selected) },
  { id: 'upload', label: 'upload', icon: 'upload', selection: false, available: (ctx) => ctx.user.perm.create, run: (ctx) => showPrompt('upload', { base: folderPath(ctx) }) },
  { id: 'info', label: 'info', icon: 'info', selection: false, available: () => true, run: (ctx) => showPrompt('info', { items: ctx.selected.length ? [...ctx.selected] : [ctx.folder] }) },
  // One file's kept versions (reading them needs download; restoring and deleting are checked inside the panel).
  { id: 'versions', label: 'versions', icon: 'history', selection: true, available: (ctx) => ctx.user.perm.download && one(ctx) && !ctx.selected[0]!.isDir, run: (ctx) => showPrompt('versions', { item: ctx.selected[0]! }) },
  { id: 'multiple', label: 'selectMultiple', icon: 'multiple', selection: false, available: () => true, run: () => toggleMultiple() },
];

export const actionById = (id: ActionId): FileAction => FILE_ACTIONS.find((a) => a.id === id)!;
