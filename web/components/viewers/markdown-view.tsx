import { useMemo, type MouseEvent } from 'react';
import { goTo } from '../../state/navigation';
import { renderMarkdown } from './markdown-render';

/** Rendered Markdown (sanitised: markdown-render.ts); relative links open in the app without a page load. */
export function MarkdownView({ source, path }: { source: string; path: string }) {
  const html = useMemo(() => renderMarkdown(source, path), [source, path]);
  const onClick = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a[data-path]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    goTo(`/files${(a.getAttribute('data-path') ?? '/').split('/').map(encodeURIComponent).join('/')}`);
  };
  // The HTML comes out of DOMPurify with a fixed allow-list; see renderMarkdown.
  return <article className="markdown-body" data-testid="markdown" dir="auto" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
