import { fetchResource, transfer, type TransferOptions } from '../api/resources';
import { auth } from '../state/auth.state';
import { clearClipboard, clipboard } from '../state/clipboard.state';
import { currentFolder, files, listingItems, reloadListing } from '../state/files.state';
import { focusListingItem, returnListingFocus } from '../state/listing-focus.state';
import { goTo } from '../state/navigation';
import { showError, showSuccess } from '../state/notices.state';
import { withProgress } from '../state/progress.state';
import { showPrompt } from '../state/prompts.state';
import { offerUndo } from '../state/undo.state';
import { runJob } from '../state/jobs.state';
import type { JobConflict } from '../../server/contract/job';
import { wantsJob } from './job-size';

export interface TransferItem {
  /** Decoded path of the source. */
  from: string;
  name: string;
  /** What the listing knew, used to decide whether the transfer runs as a background job. */
  isDir?: boolean;
  folderSize?: number;
}

type Action = 'copy' | 'rename';

const folderUrl = (folder: string) => `/files${folder.split('/').map(encodeURIComponent).join('/')}`.replace(/\/?$/, '/');
const asFolder = (p: string) => (p.endsWith('/') ? p : `${p}/`);

async function run(action: Action, items: readonly TransferItem[], dest: string, opts: TransferOptions): Promise<boolean> {
  try {
    await withProgress(() => Promise.all(items.map((i) => transfer(action, i.from.replace(/\/$/, ''), dest + i.name, opts))));
    // A plain move can be taken back (each item to where it came from); one that replaced or renamed cannot be exactly.
    if (action === 'rename' && !opts.override && !opts.rename) {
      const moves = items.map((i) => ({ from: i.from.replace(/\/$/, ''), to: dest + i.name }));
      offerUndo({ messageKey: 'trash.undo.moved', count: moves.length, run: () => Promise.all(moves.map((m) => transfer('rename', m.to, m.from))).then(() => {}) });
    } else showSuccess(action === 'copy' ? 'notices.copied' : 'notices.moved');
    return true;
  } catch (e) {
    showError(e);
    return false;
  } finally {
    await reloadListing();
  }
}

const noSlash = (p: string) => (p.length > 1 ? p.replace(/\/$/, '') : p);

/** A big transfer as one background job; its progress shows in the jobs panel, and the listing reloads when it ends. */
async function runAsJob(action: Action, items: readonly TransferItem[], dest: string, conflict: JobConflict): Promise<boolean> {
  const job = await runJob({ kind: action === 'copy' ? 'copy' : 'move', items: items.map((i) => noSlash(i.from)), destination: noSlash(dest), conflict });
  return job !== null;
}

async function namesIn(dest: string): Promise<Set<string>> {
  const here = files.resource?.isDir && asFolder(files.resource.path) === dest;
  const items = here ? listingItems() : ((await fetchResource(dest)).items ?? []);
  return new Set(items.map((i) => i.name));
}

/**
 * Copies or moves items into `dest` (decoded folder path). Into the folder they come from, a copy gets a free
 * name (rename=true); elsewhere a clash opens the replace-rename prompt (override or rename). A big selection (see
 * job-size.ts) runs as one background job instead, its conflicts asked once up front (replace, keep both or skip).
 */
export async function transferItems(action: Action, items: readonly TransferItem[], destination: string, opts: { redirect?: boolean; onDone?: () => void } = {}): Promise<void> {
  if (!items.length) return;
  const dest = asFolder(destination);
  const done = (ok: boolean) => {
    if (ok) opts.onDone?.();
    if (ok && opts.redirect && auth.user?.redirectAfterCopyMove && asFolder(currentFolder()) !== dest) {
      goTo(folderUrl(dest));
      // The keyboard follows the items: the first one takes the focus there.
      focusListingItem(dest, items[0]!.name);
    } else returnListingFocus(); // the listing reloaded: back to the item, or to the one now in its place
  };
  const sameFolder = items.every((i) => asFolder(i.from.replace(/\/$/, '').replace(/[^/]*$/, '')) === dest);
  // A move into the folder it is already in changes nothing, so it is never worth a job.
  if (sameFolder && action === 'rename') return done(true);
  const asJob = await wantsJob(items.map((i) => ({ path: i.from, isDir: i.isDir ?? i.from.endsWith('/'), folderSize: i.folderSize })));
  if (sameFolder) return done(asJob ? await runAsJob(action, items, dest, 'rename') : await run(action, items, dest, { rename: true }));
  let taken: Set<string>;
  try {
    taken = await namesIn(dest);
  } catch (e) {
    return showError(e);
  }
  const clashing = items.filter((i) => taken.has(i.name)).map((i) => i.name);
  if (asJob) {
    // Nothing clashes now: keep both should a name appear while the job runs, so nothing is ever overwritten unasked.
    if (!clashing.length) return done(await runAsJob(action, items, dest, 'rename'));
    return showPrompt('replaceRename', {
      names: clashing,
      onOverwrite: () => void runAsJob(action, items, dest, 'replace').then(done),
      onRename: () => void runAsJob(action, items, dest, 'rename').then(done),
      onSkip: () => void runAsJob(action, items, dest, 'skip').then(done),
    });
  }
  if (!clashing.length) return done(await run(action, items, dest, {}));
  showPrompt('replaceRename', {
    names: clashing,
    onOverwrite: () => void run(action, items, dest, { override: true }).then(done),
    onRename: () => void run(action, items, dest, { rename: true }).then(done),
  });
}

/** Ctrl+V: a cut moves and empties the clipboard, a copy copies; into the same folder a copy auto-renames. */
export async function pasteClipboard(): Promise<void> {
  const { key, items } = clipboard;
  if (!key || !items.length) return;
  const list = items.map((i) => ({ from: i.from, name: i.name, isDir: i.isDir, folderSize: i.folderSize }));
  await transferItems(key === 'x' ? 'rename' : 'copy', list, currentFolder(), { onDone: key === 'x' ? clearClipboard : undefined });
}
