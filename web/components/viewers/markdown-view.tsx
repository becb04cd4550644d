import { useMemo, type MouseEvent } from 'react';
import { goTo } from '../../state/navigation';
import { APP_TARGETS, renderMarkdown, type MarkdownTargets } from './markdown-render';

/**
 * Rendered Markdown (sanitised: markdown-render.ts); relative links open in the app without a page load. `targets`:
 * where relative links and images lead (the files view by default; the public share page passes its own).
 */
export function MarkdownView({ source, path, targets = APP_TARGETS }: { source: string; path: string; targets?: MarkdownTargets }) {
  const html = useMemo(() => renderMarkdown(source, path, targets), [source, path, targets]);
  const onClick = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a[data-path]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    goTo(targets.route(a.getAttribute('data-path') ?? '/'));
  };
  // The HTML comes out of DOMPurify with a fixed allow-list; see renderMarkdown.
  return <article className="markdown-body" data-testid="markdown" dir="auto" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
