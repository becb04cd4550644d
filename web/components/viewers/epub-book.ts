import DOMPurify from 'dompurify';
import { unzipSync } from 'fflate';

/** Books above this are not unpacked in the browser (the download stays available). */
export const EPUB_MAX_BYTES = 100 * 1024 * 1024;

export interface Chapter {
  /** Path inside the archive. */
  href: string;
  title: string;
}

export interface Book {
  title: string;
  chapters: Chapter[];
  /** Sanitised HTML of one chapter; images as blob: URLs owned by the book. */
  chapterHtml(i: number): string;
  /** Frees the image URLs. */
  close(): void;
}

const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : '');
const xml = (s: string) => new DOMParser().parseFromString(s, 'application/xml');

/** "a/b/../c.xhtml#x" against the folder of `base`, inside the archive; null when it leaves it. */
function inside(base: string, ref: string): string | null {
  try {
    const u = new URL(ref, `http://book/${base}`);
    if (u.host !== 'book') return null;
    return decodeURIComponent(u.pathname.slice(1));
  } catch {
    return null;
  }
}

/**
 * Opens an EPUB (a zip of XHTML chapters) without running anything from it: the spine gives the chapters in
 * reading order, and each chapter's body goes through DOMPurify (no scripts, handlers, forms, frames or styles),
 * with images from the archive as blob: URLs, links to other chapters as data-chapter, and links to other sites
 * opening in a new tab with rel="noopener noreferrer". Throws when the archive is not a readable EPUB.
 */
export function openBook(bytes: Uint8Array, fallbackTitle: string): Book {
  const files = unzipSync(bytes);
  const container = xml(text(files['META-INF/container.xml']));
  const opfPath = container.querySelector('rootfile')?.getAttribute('full-path');
  if (!opfPath || !files[opfPath]) throw new Error('no package document');
  const opf = xml(text(files[opfPath]));
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of Array.from(opf.getElementsByTagNameNS('*', 'item'))) {
    const href = inside(opfPath, item.getAttribute('href') ?? '');
    if (href) manifest.set(item.getAttribute('id') ?? '', { href, type: item.getAttribute('media-type') ?? '' });
  }
  const spine = Array.from(opf.getElementsByTagNameNS('*', 'itemref'))
    .map((r) => manifest.get(r.getAttribute('idref') ?? ''))
    .filter((m): m is { href: string; type: string } => !!m && !!files[m.href] && /html|xml/.test(m.type));
  if (!spine.length) throw new Error('no chapters');
  const index = new Map(spine.map((m, i) => [m.href, i]));
  const types = new Map([...manifest.values()].map((m) => [m.href, m.type]));
  const urls = new Map<string, string>();
  const imageUrl = (path: string) => {
    let u = urls.get(path);
    const data = files[path];
    if (!u && data && /^image\//.test(types.get(path) ?? '') && !/svg/.test(types.get(path) ?? '')) {
      u = URL.createObjectURL(new Blob([data as BlobPart], { type: types.get(path) }));
      urls.set(path, u);
    }
    return u;
  };
  const parse = (href: string) => new DOMParser().parseFromString(text(files[href]), 'text/html');
  const chapters = spine.map((m, i) => {
    const doc = parse(m.href);
    const heading = doc.querySelector('h1, h2, h3')?.textContent?.trim() || doc.title.trim();
    return { href: m.href, title: heading || `#${i + 1}` };
  });
  const title = opf.getElementsByTagNameNS('*', 'title')[0]?.textContent?.trim() || fallbackTitle;

  const chapterHtml = (i: number): string => {
    const href = chapters[i]!.href;
    const purify = DOMPurify(window);
    purify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'IMG') {
        const path = inside(href, node.getAttribute('src') ?? '');
        const u = path ? imageUrl(path) : undefined;
        if (u) node.setAttribute('src', u);
        else node.removeAttribute('src');
      } else if (node.tagName === 'A') {
        const ref = node.getAttribute('href') ?? '';
        node.removeAttribute('target');
        if (/^(https?:|mailto:)/i.test(ref)) {
          node.setAttribute('target', '_blank');
          node.setAttribute('rel', 'noopener noreferrer');
          return;
        }
        const path = inside(href, ref.replace(/#.*$/, '') || href.split('/').pop()!);
        const target = path !== null ? index.get(path) : undefined;
        node.removeAttribute('href');
        if (target !== undefined) {
          node.setAttribute('href', '#');
          node.setAttribute('data-chapter', String(target));
        }
      }
    });
    return purify.sanitize(parse(href).body.innerHTML, {
      FORBID_TAGS: ['style', 'link', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math', 'base', 'meta'],
      FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
      ALLOW_DATA_ATTR: false,
    });
  };
  return { title, chapters, chapterHtml, close: () => urls.forEach((u) => URL.revokeObjectURL(u)) };
}
