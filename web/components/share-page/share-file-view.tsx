import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Resource } from '../../../server/contract/resource';
import { fetchPublicText, publicDownloadUrl, publicSubtitleUrl } from '../../api/public';
import { encodePath } from '../../api/resources';
import type { MarkdownTargets } from '../viewers/markdown-render';
import { documentKind } from '../viewers/viewer-kind';
import '../../styles/viewers.css';

// The app's own viewers, loaded with the first document a visitor opens.
const MarkdownView = lazy(() => import('../viewers/markdown-view').then((m) => ({ default: m.MarkdownView })));
const CsvView = lazy(() => import('../viewers/csv-view').then((m) => ({ default: m.CsvView })));
const JsonView = lazy(() => import('../viewers/json-view').then((m) => ({ default: m.JsonView })));

/** Text larger than this is offered as a download only: a visitor's tab should not hold a huge log. */
export const TEXT_VIEW_LIMIT = 2 * 1024 * 1024;

const SUBTITLE = /\.(vtt|srt|ass|ssa)$/i;
const stem = (name: string) => name.replace(/\.[^.]*$/, '');

/** Subtitle files beside a video in a shared folder ("film.srt", "film.en.vtt" for "film.mp4"). */
export function subtitlesFor(video: string, siblings: readonly Resource[]): string[] {
  const base = stem(video);
  return siblings.filter((s) => !s.isDir && SUBTITLE.test(s.name) && (stem(s.name) === base || stem(s.name).startsWith(`${base}.`))).map((s) => s.name);
}

/** Whether the share page has an inline view for a file of this type and name. */
export function viewable(item: Pick<Resource, 'type' | 'name' | 'isDir'>): boolean {
  return !item.isDir && (['image', 'video', 'audio', 'pdf', 'text', 'textImmutable'].includes(item.type) || !!documentKind(item.name));
}

/** A shared Markdown file's relative links open inside the share, its pictures load through the share. */
const shareTargets = (hash: string, token?: string): MarkdownTargets => ({
  route: (p) => `/share/${encodeURIComponent(hash)}${encodePath(p)}`,
  image: (p) => publicDownloadUrl(hash, p, { token, inline: true }),
});

interface TextProps {
  url: () => Promise<string>;
  name: string;
  size: number;
  /** The file's share-relative path, and what its Markdown links lead to. */
  path: string;
  targets: MarkdownTargets;
}

function TextView({ url, name, size, path, targets }: TextProps) {
  const { t } = useTranslation();
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setText(null);
    setFailed(false);
    if (size > TEXT_VIEW_LIMIT) return;
    let live = true;
    url().then((s) => live && setText(s), () => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url, size]);
  if (size > TEXT_VIEW_LIMIT) return <p className="share-viewer__note">{t('sharePage.viewer.tooLarge')}</p>;
  if (failed) return <p className="share-viewer__note" role="alert">{t('sharePage.viewer.failed')}</p>;
  if (text === null) return <p className="share-viewer__note" role="status">{t('share.loading')}</p>;
  const kind = documentKind(name);
  return (
    <Suspense fallback={<p className="share-viewer__note">{t('share.loading')}</p>}>
      {kind === 'markdown' && <MarkdownView source={text} path={path === '/' ? `/${name}` : path} targets={targets} />}
      {kind === 'delimited' && <CsvView source={text} name={name} />}
      {kind === 'json' && <JsonView source={text} name={name} />}
      {!kind && <pre className="share-viewer__text" dir="auto" data-testid="share-text" tabIndex={0}>{text}</pre>}
    </Suspense>
  );
}

interface Props {
  hash: string;
  /** The file's share-relative path ("/" for a file link). */
  path: string;
  item: Pick<Resource, 'name' | 'type' | 'size' | 'isDir'>;
  token?: string;
  /** Share-relative paths of subtitle files for a video. */
  subtitles?: readonly string[];
}

/**
 * A shared file shown in the page: PDF in the browser's own viewer, video (with subtitles converted by the server),
 * audio, images, and text through the app's Markdown, table and JSON views. Everything loads through the public
 * download with `inline=true`, which goes through the share's one decision like every download.
 */
export function ShareFileView({ hash, path, item, token, subtitles = [] }: Props) {
  const { t } = useTranslation();
  const inline = publicDownloadUrl(hash, path, { token, inline: true });
  // A new address (a Markdown link to another shared file) loads that file's text.
  const loadText = useMemo(() => () => fetchPublicText(hash, path, token), [hash, path, token]);
  const targets = useMemo(() => shareTargets(hash, token), [hash, token]);
  let body;
  if (item.type === 'pdf') body = <iframe className="share-viewer__pdf" src={inline} title={item.name} data-testid="share-pdf" />;
  else if (item.type === 'image') body = <img className="share-viewer__image" src={inline} alt={item.name} data-testid="share-image" />;
  else if (item.type === 'video')
    body = (
      <video className="share-viewer__video" src={inline} controls playsInline preload="metadata" data-testid="share-video">
        {subtitles.map((s, i) => (
          <track key={s} kind="subtitles" src={publicSubtitleUrl(hash, s, token)} label={s.slice(s.lastIndexOf('/') + 1)} default={i === 0} />
        ))}
      </video>
    );
  else if (item.type === 'audio') body = <audio className="share-viewer__audio" src={inline} controls preload="metadata" data-testid="share-audio" />;
  else if (viewable(item)) body = <TextView url={loadText} name={item.name} size={item.size} path={path} targets={targets} />;
  else body = <p className="share-viewer__note">{t('sharePage.viewer.none')}</p>;
  return (
    <section className="share-viewer" aria-label={t('sharePage.viewer.label', { name: item.name })} data-testid="share-viewer" data-type={item.type}>
      {body}
    </section>
  );
}
