import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { rawUrl } from '../../api/preview';
import { auth } from '../../state/auth.state';
import { pageConfig } from '../../api/page-config';
import { previewState, toggleFullSize } from '../../state/preview.state';
import { ViewerIcon, type ViewerIconName } from './viewer-icons';
import { isHeif } from '../ui/file-kind';

function Action({ icon, label, testId, onClick }: { icon: ViewerIconName; label: string; testId: string; onClick(): void }) {
  return (
    <button type="button" className="viewer-action" aria-label={label} title={label} data-testid={testId} onClick={onClick}>
      <ViewerIcon name={icon} />
    </button>
  );
}

export interface PreviewHeaderProps {
  resource: WebResource;
  onClose(): void;
  onRename(): void;
  onDelete(): void;
  onInfo(): void;
}

/** Close, the file name, and the actions the user's permissions allow (spec §2, §6). */
export function PreviewHeader({ resource, onClose, onRename, onDelete, onInfo }: PreviewHeaderProps) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const { fullSize } = useSnapshot(previewState);
  const perm = user?.perm;
  // A HEIC has no original the browser could show: its preview is always the server's.
  const canResize = resource.type === 'image' && !isHeif(resource.name) && pageConfig.ResizePreview && !!perm?.download;
  return (
    <header className="viewer-bar previewer__bar">
      <Action icon="close" label={t('preview.close')} testId="preview-close" onClick={onClose} />
      <h1 className="viewer-bar__title" title={resource.name} data-testid="preview-name">
        {resource.name}
      </h1>
      <div className="viewer-bar__actions">
        {canResize && (
          <button
            type="button"
            className="viewer-action"
            aria-pressed={fullSize}
            aria-label={t(fullSize ? 'preview.showResized' : 'preview.showOriginal')}
            title={t(fullSize ? 'preview.showResized' : 'preview.showOriginal')}
            data-testid="preview-resize"
            onClick={toggleFullSize}
          >
            <ViewerIcon name={fullSize ? 'shrink' : 'expand'} />
          </button>
        )}
        {perm?.rename && <Action icon="rename" label={t('preview.rename')} testId="preview-rename" onClick={onRename} />}
        {perm?.delete && <Action icon="delete" label={t('preview.delete')} testId="preview-delete" onClick={onDelete} />}
        {perm?.download && (
          <a className="viewer-action" href={rawUrl(resource.path, false)} download={resource.name} aria-label={t('preview.download')} title={t('preview.download')} data-testid="preview-download">
            <ViewerIcon name="download" />
          </a>
        )}
        <Action icon="info" label={t('preview.info')} testId="preview-info" onClick={onInfo} />
      </div>
    </header>
  );
}
