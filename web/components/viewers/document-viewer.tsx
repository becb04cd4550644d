import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { WebResource } from '../../api/resources';
import { rawUrl } from '../../api/preview';
import { auth } from '../../state/auth.state';
import { Icon } from '../ui/icon';
import type { DocumentKind } from './viewer-kind';
import '../../styles/preview.css';
import '../../styles/viewers.css';

const MarkdownView = lazy(() => import('./markdown-view').then((m) => ({ default: m.MarkdownView })));
const CsvView = lazy(() => import('./csv-view').then((m) => ({ default: m.CsvView })));
const JsonView = lazy(() => import('./json-view').then((m) => ({ default: m.JsonView })));

export interface DocumentViewerProps {
  resource: WebResource;
  kind: DocumentKind;
  onClose(): void;
  onEdit(): void;
}

/** True when a key press belongs to a field, a button or a menu rather than to the page. */
const typingIn = (e: KeyboardEvent) => {
  const el = e.target as HTMLElement | null;
  return !!el?.closest?.('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role=dialog], [role=menu]');
};

/** Markdown, CSV/TSV or JSON shown rendered, with Close, Edit (or the E key, when the file may be changed) and Download. */
export function DocumentViewer({ resource, kind, onClose, onEdit }: DocumentViewerProps) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const content = resource.content ?? '';
  const editable = resource.type === 'text' && resource.content !== undefined && !!user?.perm.modify;
  // One key from the rendered view to the editor: E, unless a field or dialog has the key.
  useEffect(() => {
    if (!editable) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'e' || e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.defaultPrevented || typingIn(e)) return;
      e.preventDefault();
      onEdit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editable, onEdit]);
  return (
    <section className="doc-viewer" aria-label={resource.name} data-testid="doc-viewer" data-kind={kind}>
      <header className="viewer-bar doc-viewer__bar">
        <button type="button" className="viewer-action" aria-label={t('editor.close')} title={t('editor.close')} data-testid="viewer-close" onClick={onClose}>
          <Icon name="close" />
        </button>
        <h1 className="viewer-bar__title" title={resource.name} data-testid="viewer-name" dir="auto">
          {resource.name}
        </h1>
        <div className="viewer-bar__actions">
          {user?.perm.download && (
            <a className="viewer-action" href={rawUrl(resource.path, false)} download={resource.name} aria-label={t('preview.download')} title={t('preview.download')}>
              <Icon name="download" />
            </a>
          )}
          {editable && (
            <button type="button" className="btn btn--primary editor__save" data-testid="viewer-edit" aria-keyshortcuts="E" title={`${t('viewers.edit')} (E)`} onClick={onEdit}>
              <Icon name="edit" />
              <span>{t('viewers.edit')}</span>
            </button>
          )}
        </div>
      </header>
      <div className="doc-viewer__body">
        <Suspense fallback={<p className="doc-viewer__status">{t('editor.loading')}</p>}>
          {kind === 'markdown' && <MarkdownView source={content} path={resource.path} />}
          {kind === 'delimited' && <CsvView source={content} name={resource.name} />}
          {kind === 'json' && <JsonView source={content} name={resource.name} />}
        </Suspense>
      </div>
    </section>
  );
}
