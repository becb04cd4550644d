import type { PublicUploadRoom, ShareMode } from '../../contract/share';
import { forbidden, notFound } from '../../core/errors';
import type { SharesStore } from '../../db/shares.store';
import { permitted } from '../policy/file-policy';
import type { ShareAccessLog, Visit } from './share-access-log';
import { settingsOf } from './share-settings';
import type { PublicShare } from './share-visitor';

/** What a visitor is told of a link besides its listing: its mode, and for file requests what it still accepts. */
export interface VisitorInfo {
  mode: ShareMode;
  /** False for an `upload` link: nothing of what is there is shown (no names, sizes or counts). */
  lists: boolean;
  upload?: PublicUploadRoom;
}

const nowSec = () => Math.floor(Date.now() / 1000);

/**
 * A visitor opened the link's page or a listing (after SharesService.open): counted (`views`, the log) and told
 * what the link is. An `upload` link shows nothing of what is there: below its root it is a 403.
 */
export async function visitedLink(store: SharesStore, log: ShareAccessLog, ps: PublicShare, visit: Visit): Promise<VisitorInfo> {
  if (ps.mode === 'upload' && ps.path !== '/') throw forbidden('this link only accepts files');
  await store.viewed(ps.share.hash, nowSec());
  await log.add(ps.share.hash, 'view', ps.shown, visit);
  if (ps.mode === 'view') return { mode: 'view', lists: true };
  const v = settingsOf((await store.byHash(ps.share.hash)) ?? ps.share);
  const upload: PublicUploadRoom = {
    maxFileSize: v.maxFileSize,
    remainingBytes: v.maxTotalSize ? Math.max(0, v.maxTotalSize - v.uploadedBytes) : null,
    remainingFiles: v.maxFiles ? Math.max(0, v.maxFiles - v.uploads) : null,
    allowedTypes: v.allowedTypes,
  };
  return { mode: ps.mode, lists: ps.mode === 'upload-view', upload };
}

/**
 * A download through the link is about to start: one that starts at byte 0 and is not an inline view counts
 * (`downloads`, the log); the count that reaches `maxDownloads` is the last one served (atomic), later ones 404.
 * A request the visitor may not make (an `upload` link) is left to the file policy's 403, uncounted.
 */
export async function downloadStarting(store: SharesStore, log: ShareAccessLog, ps: PublicShare, range: string | null, inline: boolean, visit: Visit): Promise<void> {
  if (!permitted(ps.actor, 'download') || inline) return;
  if (range && !/^bytes=0-/.test(range.trim())) return;
  if (!(await store.downloaded(ps.share.hash, nowSec()))) throw notFound();
  await log.add(ps.share.hash, 'download', ps.shown, visit);
}
