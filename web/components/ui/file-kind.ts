import type { ResourceType } from '../../../server/contract/resource';
import { pageConfig } from '../../api/page-config';
import type { IconName } from './icon';

/** What a file is to a person; one icon each (listing, search, share page, previewer). */
export type FileKind = 'folder' | 'document' | 'spreadsheet' | 'code' | 'archive' | 'audio' | 'video' | 'pdf' | 'image' | 'text' | 'file';

// Names decide first: the server types .md, .json and .csv all as "text", but people look for them apart.
const BY_EXT: [FileKind, RegExp][] = [
  ['spreadsheet', /\.(csv|tsv|xlsx?|xlsm|ods|numbers)$/i],
  ['document', /\.(md|markdown|mdx|rst|adoc|org|docx?|odt|rtf|pages|epub|tex|pptx?|odp|key)$/i],
  ['archive', /\.(zip|tar|tgz|gz|bz2|tbz2?|xz|txz|zst|tzst|lz4|lz|lzma|sz|br|7z|rar|iso|dmg|deb|rpm|apk|jar)$/i],
  ['code', /\.(json|jsonc|ndjson|ya?ml|toml|xml|html?|css|scss|less|[cm]?[jt]sx?|py|rb|go|rs|java|kt|kts|swift|scala|php|pl|lua|r|dart|exs?|erl|hs|clj|cs|fs|vb|sql|c|h|cc|cpp|hpp|m|sh|bash|zsh|fish|ps1|bat|vue|svelte|astro|graphql|proto|tf|hcl|nix|zig|ini|conf|cfg|env|gradle|cmake|mk|dockerfile|makefile|diff|patch)$/i],
  ['text', /\.(txt|log|text|nfo|srt|vtt|ass|ssa)$/i],
  ['pdf', /\.pdf$/i],
];

const BY_TYPE: Partial<Record<ResourceType, FileKind>> = { image: 'image', audio: 'audio', video: 'video', pdf: 'pdf', text: 'text', textImmutable: 'text' };

/** The kind of an item from its name and the server's type (the one place that decides it). */
export function fileKind(name: string, type?: ResourceType | string, isDir = false): FileKind {
  if (isDir) return 'folder';
  const media = type ? BY_TYPE[type as ResourceType] : undefined;
  if (media && media !== 'text') return media; // the server sniffed it: an image is an image whatever its name
  for (const [kind, re] of BY_EXT) if (re.test(name)) return kind;
  return media ?? 'file';
}

const ICONS: Record<FileKind, IconName> = {
  folder: 'folder',
  document: 'fileDocument',
  spreadsheet: 'fileSpreadsheet',
  code: 'fileCode',
  archive: 'fileArchive',
  audio: 'fileAudio',
  video: 'fileVideo',
  pdf: 'filePdf',
  image: 'fileImage',
  text: 'fileText',
  file: 'file',
};

/** The icon for an item: `<Icon name={kindIcon(item.name, item.type, item.isDir)} />`. */
export function kindIcon(name: string, type?: ResourceType | string, isDir = false): IconName {
  return ICONS[fileKind(name, type, isDir)];
}

/** HEIC/HEIF photos by name: browsers other than Safari cannot show them, so only the server's previews are used. */
export const isHeif = (name: string) => /\.(heic|heif|hif)$/i.test(name);

/** Whether the server makes a thumbnail for this type: images always (HEIC when it has heif-convert), PDFs and videos when it has the program. */
export function hasThumbnail(type: ResourceType | string, name = ''): boolean {
  if (type === 'image') return !isHeif(name) || pageConfig.ThumbTools.heic;
  if (type === 'pdf') return pageConfig.ThumbTools.pdf;
  if (type === 'video') return pageConfig.ThumbTools.video;
  return false;
}

/**
 * Whether the server's preview gate refuses a HEIC's big preview (server/services/preview/preview-gate.ts): its
 * decoder runs only with thumbnails on, and a big preview is made only with resizePreview on.
 */
export function heicPreviewOff(): boolean {
  return !pageConfig.EnableThumbs || !pageConfig.ResizePreview;
}

/**
 * The locale key saying what the server lacks for this item's thumbnails (its program, or a sandbox to run it in),
 * or null (info prompt, previewer). With thumbnails off nothing is missing: no program runs at all.
 */
export function missingThumbTool(type: ResourceType | string, name = ''): 'viewers.pdfNeedsTool' | 'viewers.videoNeedsTool' | 'viewers.heicNeedsTool' | 'viewers.thumbsNeedSandbox' | null {
  if (!pageConfig.EnableThumbs) return null;
  const heic = type === 'image' && isHeif(name);
  if (heic && !pageConfig.ThumbTools.heic) return pageConfig.ThumbSandbox === 'off' ? 'viewers.thumbsNeedSandbox' : 'viewers.heicNeedsTool';
  if ((type === 'pdf' || type === 'video') && pageConfig.ThumbSandbox === 'off') return 'viewers.thumbsNeedSandbox';
  if (type === 'pdf' && !pageConfig.ThumbTools.pdf) return 'viewers.pdfNeedsTool';
  if (type === 'video' && !pageConfig.ThumbTools.video) return 'viewers.videoNeedsTool';
  return null;
}
