import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRawBytes } from '../../api/preview';
import type { WebResource } from '../../api/resources';
import { Icon } from '../ui/icon';
import { EPUB_MAX_BYTES, openBook, type Book } from './epub-book';
import '../../styles/viewers.css';

/** The EPUB reader: one chapter at a time (sanitised, no scripts), with previous/next and a chapter list. */
export function EpubView({ resource }: { resource: WebResource }) {
  const { t } = useTranslation();
  const [book, setBook] = useState<Book | null>(null);
  const [failed, setFailed] = useState(false);
  const [at, setAt] = useState(0);
  const page = useRef<HTMLElement>(null);

  useEffect(() => {
    if (resource.size > EPUB_MAX_BYTES) {
      setFailed(true);
      return;
    }
    const stop = new AbortController();
    let opened: Book | null = null;
    fetchRawBytes(resource.path, stop.signal)
      .then((buf) => {
        if (stop.signal.aborted) return;
        opened = openBook(new Uint8Array(buf), resource.name);
        setBook(opened);
        setAt(0);
      })
      .catch(() => !stop.signal.aborted && setFailed(true));
    return () => {
      stop.abort();
      opened?.close();
    };
  }, [resource.path, resource.size, resource.name]);

  useEffect(() => {
    page.current?.scrollTo?.(0, 0);
  }, [at]);
  const html = useMemo(() => (book ? book.chapterHtml(Math.min(at, book.chapters.length - 1)) : ''), [book, at]);

  if (failed) return <p className="previewer__card-text epub__status">{t('viewers.epubFailed')}</p>;
  if (!book) return <p className="previewer__card-text epub__status">{t('editor.loading')}</p>;
  const onClick = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a[data-chapter]');
    if (!a) return;
    e.preventDefault();
    setAt(Number(a.getAttribute('data-chapter')));
  };
  const last = book.chapters.length - 1;
  return (
    <div className="epub" data-testid="epub">
      <nav className="epub__bar" aria-label={t('viewers.chapters')}>
        <button type="button" className="viewer-action" disabled={at === 0} onClick={() => setAt(at - 1)} aria-label={t('viewers.previousChapter')} title={t('viewers.previousChapter')} data-testid="epub-prev">
          <Icon name="back" />
        </button>
        <select className="epub__toc" value={at} onChange={(e) => setAt(Number(e.target.value))} aria-label={t('viewers.chapters')} data-testid="epub-toc">
          {book.chapters.map((c, i) => (
            <option key={c.href} value={i}>
              {c.title}
            </option>
          ))}
        </select>
        <button type="button" className="viewer-action" disabled={at === last} onClick={() => setAt(at + 1)} aria-label={t('viewers.nextChapter')} title={t('viewers.nextChapter')} data-testid="epub-next">
          <Icon name="forward" />
        </button>
      </nav>
      {/* Sanitised by openBook (DOMPurify, fixed allow-list). */}
      <article ref={page} className="epub__page markdown-body" data-testid="epub-page" data-chapter={at} dir="auto" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
