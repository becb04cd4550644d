import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { PublicResource } from '../../api/public';
import { shareUpload, startShareUploads } from '../../state/share-upload.state';
import { DropZone } from './drop-zone';
import { UploadLimits, UploadList } from './upload-list';

/** A file request's side of the page: the drop zone, what the link still accepts, and this visit's uploads. */
export function ShareUploads({ hash, res }: { hash: string; res: PublicResource }) {
  const { room } = useSnapshot(shareUpload);
  useEffect(() => {
    startShareUploads(hash, res.token, res.upload ?? null);
  }, [hash, res]);
  const full = !!room && (room.remainingFiles === 0 || room.remainingBytes === 0);
  return (
    <div className="share-uploads-area" data-testid="share-uploads-area">
      <DropZone disabled={full} />
      {room && <UploadLimits room={room} />}
      <UploadList />
    </div>
  );
}
