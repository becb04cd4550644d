import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { bigPreviewUrl, rawUrl, subtitleUrl } from '../../api/preview';
import { auth } from '../../state/auth.state';
import { pageConfig } from '../../api/page-config';
import { DECODED_IN_BROWSER, previewState } from '../../state/preview.state';
import { TiffCanvas } from './tiff-canvas';
import { ViewerIcon } from './viewer-icons';
import { ZoomSurface } from './zoom-surface';
import { isDelimited, isEpub } from '../viewers/viewer-kind';
import { heicPreviewOff, isHeif, missingThumbTool } from '../ui/file-kind';

// Loaded with the first book or big table only.
const EpubView = lazy(() => import('../viewers/epub-view').then((m) => ({ default: m.EpubView })));
const CsvView = lazy(() => import('../viewers/csv-view').then((m) => ({ default: m.CsvView })));

function ImagePreview({ resource }: { resource: WebResource }) {
  const { t } = useTranslation();
  const { fullSize } = useSnapshot(previewState);
  // 0: as chosen; 1: the resized preview failed (too large to resize, say), so the original is tried; 2: failed.
  const [fallback, setFallback] = useState(0);
  // A HEIC is always shown through the server's big preview (a JPEG): the original is no use to the browser. When
  // the server's settings turn that preview off, the previewer says so and offers the download instead.
  const heif = isHeif(resource.name);
  const resized = heif || (pageConfig.ResizePreview && !fullSize && fallback === 0);
  const src = resized ? bigPreviewUrl(resource.path, resource.modified) : rawUrl(resource.path, true);
  useEffect(() => setFallback(0), [fullSize]);
  if (heif && heicPreviewOff()) return <NoPreview resource={resource} message={t('preview.heicOff')} />;
  const missing = heif ? missingThumbTool(resource.type, resource.name) : null;
  if (missing) return <NoPreview resource={resource} message={t(missing)} />;
  if (fallback === 2) return <NoPreview resource={resource} message={t('preview.loadFailed')} />;
  return (
    <ZoomSurface resetKey={resource.path}>
      {DECODED_IN_BROWSER.test(resource.name) ? (
        <TiffCanvas path={resource.path} name={resource.name} />
      ) : (
        <img className="previewer__image" data-testid="preview-image" src={src} alt={resource.name} draggable={false} onError={() => setFallback(resized && !heif ? 1 : 2)} />
      )}
    </ZoomSurface>
  );
}

function VideoPreview({ resource }: { resource: WebResource }) {
  // The server converts SRT and ASS to WebVTT (GET /api/subtitle), so every track is a plain URL.
  const tracks = (resource.subtitles ?? []).map((p) => ({ src: subtitleUrl(p), label: p.slice(p.lastIndexOf('/') + 1) }));
  return (
    <video className="previewer__video" data-testid="preview-video" src={rawUrl(resource.path, true)} controls autoPlay playsInline>
      {tracks.map((tr, i) => (
        <track key={tr.src} kind="subtitles" src={tr.src} label={tr.label} default={i === 0} />
      ))}
    </video>
  );
}

function AudioPreview({ resource }: { resource: WebResource }) {
  return (
    <div className="previewer__card">
      <ViewerIcon name="music" className="previewer__card-icon" />
      <p className="previewer__card-name">{resource.name}</p>
      <audio className="previewer__audio" data-testid="preview-audio" src={rawUrl(resource.path, true)} controls autoPlay />
    </div>
  );
}

/** The no-preview message, with download and open-in-new-tab links when the user may download. */
export function NoPreview({ resource, message }: { resource: WebResource; message?: string }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  return (
    <div className="previewer__card" data-testid="preview-none">
      <ViewerIcon name="file" className="previewer__card-icon" />
      <p className="previewer__card-name">{resource.name}</p>
      <p className="previewer__card-text">{message ?? t('preview.noPreview')}</p>
      {user?.perm.download && (
        <div className="previewer__card-actions">
          <a className="btn btn--primary" href={rawUrl(resource.path, false)} download={resource.name} data-testid="preview-none-download">
            <ViewerIcon name="download" />
            {t('preview.download')}
          </a>
          <a className="btn btn--secondary" href={rawUrl(resource.path, true)} target="_blank" rel="noopener noreferrer" data-testid="preview-none-open">
            <ViewerIcon name="external" />
            {t('preview.openInNewTab')}
          </a>
        </div>
      )}
    </div>
  );
}

/** What the previewer shows for each resource type. */
export function PreviewMedia({ resource }: { resource: WebResource }) {
  const { user } = useSnapshot(auth);
  if (!user?.perm.download) return <NoPreview resource={resource} />; // the media URLs would all be refused
  switch (resource.type) {
    case 'image':
      return <ImagePreview resource={resource} />;
    case 'video':
      return <VideoPreview resource={resource} />;
    case 'audio':
      return <AudioPreview resource={resource} />;
    case 'pdf':
      return <iframe className="previewer__pdf" data-testid="preview-pdf" src={rawUrl(resource.path, true)} title={resource.name} />;
    default:
      // A book, or a table too big to load as text (streamed from the server, first rows only).
      if (isEpub(resource.name) || isDelimited(resource.name))
        return (
          <Suspense fallback={<p className="previewer__card-text">…</p>}>
            {isEpub(resource.name) ? (
              <EpubView resource={resource} />
            ) : (
              <div className="doc-viewer doc-viewer--inline">
                <CsvView url={rawUrl(resource.path, true)} name={resource.name} />
              </div>
            )}
          </Suspense>
        );
      return <NoPreview resource={resource} />;
  }
}
