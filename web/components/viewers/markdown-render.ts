import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { pageConfig } from '../../api/page-config';
import { encodePath } from '../../api/resources';
import { rawUrl } from '../../api/preview';

const marked = new Marked({ gfm: true, breaks: false });

/** Resolves a relative reference ("img/a b.png", "../x.md#top") against the file's folder, to a virtual path. */
export function resolveRelative(folder: string, ref: string): string | null {
  try {
    const u = new URL(ref, `http://x${encodePath(folder)}`);
    if (u.host !== 'x') return null;
    return decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
}

/**
 * Where a relative reference leads, by the virtual path it names: `route` is the in-app route of a link (without the
 * base URL), `image` the address an image loads from. The app's own: /files and /api/raw; the public share page
 * passes the share's routes, so a shared Markdown file's links and pictures stay inside the share.
 */
export interface MarkdownTargets {
  route(path: string): string;
  image(path: string): string;
}

export const APP_TARGETS: MarkdownTargets = { route: (p) => `/files${encodePath(p)}`, image: (p) => rawUrl(p, true) };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const EXTERNAL = /^(https?:|mailto:)/i;

/**
 * Markdown to safe HTML. marked renders; DOMPurify removes scripts, event handlers, styles, forms and frames and
 * every URL scheme it does not know to be safe (javascript:, data: and vbscript: links are gone). Then:
 * - links to other sites open in a new tab with rel="noopener noreferrer"; relative links become in-app links to
 *   the file they name (data-path, followed by the view without a page load); any other scheme is dropped;
 * - relative images load from the same folder through /api/raw (?inline=true, served with nosniff and the
 *   no-script CSP); images from other sites are dropped (the page's CSP would refuse them, and they would tell a
 *   third party who reads the file).
 */
export function renderMarkdown(source: string, filePath: string, targets: MarkdownTargets = APP_TARGETS): string {
  const folder = filePath.replace(/[^/]*$/, '');
  const purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      node.removeAttribute('target');
      if (!href || href.startsWith('#')) return;
      if (EXTERNAL.test(href)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
        return;
      }
      const path = SCHEME.test(href) || href.startsWith('//') ? null : resolveRelative(folder, href);
      if (!path) {
        node.removeAttribute('href');
        return;
      }
      node.setAttribute('href', `${pageConfig.BaseURL}${targets.route(path)}`);
      node.setAttribute('data-path', path);
    } else if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      const path = !src || SCHEME.test(src) || src.startsWith('//') ? null : resolveRelative(folder, src);
      if (path) node.setAttribute('src', targets.image(path));
      else node.removeAttribute('src');
      node.setAttribute('loading', 'lazy');
    }
  });
  const html = marked.parse(source, { async: false }) as string;
  return purify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}
