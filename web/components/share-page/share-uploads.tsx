import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { shareMode, type PublicResource } from '../../api/public';
import { openShare } from '../../state/public-share.state';
import { shareUpload, startShareUploads } from '../../state/share-upload.state';
import { DropZone } from './drop-zone';
import { UploadLimits, UploadList } from './upload-list';

/** Pause before a listing is reloaded after files arrived, so a batch of small files reloads it once. */
const RELOAD_MS = 800;

/**
 * A file request's side of the page: the drop zone (into the folder the visitor is in), what the link still
 * accepts, and this visit's uploads. An upload-and-view link's listing is reloaded as files arrive.
 */
export function ShareUploads({ hash, path, res }: { hash: string; path: string; res: PublicResource }) {
  const { room, stored, items } = useSnapshot(shareUpload);
  const busy = items.some((i) => i.status === 'queued' || i.status === 'uploading');
  // Leaving or reloading the page would stop the uploads: the browser asks first.
  useEffect(() => {
    if (!busy) return;
    const onLeave = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [busy]);
  const seen = useRef(stored);
  useEffect(() => {
    startShareUploads(hash, res.token, res.upload ?? null);
  }, [hash, res]);
  useEffect(() => {
    if (stored === seen.current || shareMode(res) !== 'upload-view') return;
    const id = window.setTimeout(() => {
      seen.current = stored;
      void openShare(hash, path);
    }, RELOAD_MS);
    return () => window.clearTimeout(id);
  }, [stored, hash, path, res]);
  const full = !!room && (room.remainingFiles === 0 || room.remainingBytes === 0);
  return (
    <div className="share-uploads-area" data-testid="share-uploads-area">
      <DropZone folder={path} disabled={full} />
      {room && <UploadLimits room={room} />}
      <UploadList />
    </div>
  );
}
