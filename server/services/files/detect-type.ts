import type { ResourceType } from '../../contract/resource';

/**
 * What a content sniff found in a file's first bytes, as far as its type goes: a HEIF photo's brand, text (valid
 * UTF-8 without control bytes ≤ 8), or binary (sniff-cache.ts sniffedOf). The type follows from this, the name and
 * the size (detectType).
 */
export type Sniffed = 'heif' | 'text' | 'binary';

export const TEXT_LIMIT = 10 * 1024 * 1024;

// Extensions whose MIME from Bun's table is missing or misleading for a file manager (.ts is TypeScript, not
// an MPEG stream; raw camera formats are images the web app decodes itself).
const OVERRIDES: Record<string, string> = {};
const set = (mime: string, exts: string) => exts.split(' ').forEach((e) => (OVERRIDES[e] = mime));
set('text/plain', '.ts .tsx .jsx .mts .cts .go .py .rb .rs .java .kt .kts .swift .scala .php .pl .lua .r .dart .ex .exs .erl .hs .clj .cs .fs .vb .sql .toml .ini .conf .cfg .env .properties .gradle .cmake .mk .dockerfile .gitignore .gitattributes .editorconfig .srt .ass .ssa .sub .tex .bib .rst .adoc .org .nix .zig .v .vue .svelte .astro .graphql .proto .tf .hcl .diff .patch .bat .ps1 .fish .zsh .bash');
set('image/x-adobe-dng', '.dng');
set('image/x-canon-cr2', '.cr2');
set('image/x-nikon-nef', '.nef');
set('audio/mp4', '.m4a');

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-sh|x-csh|yaml|x-yaml|toml|x-subrip|x-tex|x-httpd-php|sql|graphql|ld\+json|x-ndjson))|\+xml$|\+json$/;

const byExt = new Map<string, string>();

/** The extension (as written) and type of the last name asked: a folder's names mostly share their extension. */
let lastExt = '';
let lastMime = '';

/** MIME type from the name alone (no disk access); memoised per extension, as listings ask thousands of times. */
export function mimeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  // The last name's extension, compared in place (no slice or lower-casing for the usual run of alike names).
  if (dot >= 0 && lastExt && name.length - dot === lastExt.length && name.endsWith(lastExt)) return lastMime;
  const raw = dot >= 0 ? name.slice(dot) : '';
  const ext = raw.toLowerCase();
  let mime = byExt.get(ext);
  if (mime === undefined) {
    mime = OVERRIDES[ext] ?? (ext && ext !== '.' ? Bun.file(`x${ext}`).type.split(';')[0] : '') ?? '';
    if (!mime) mime = 'application/octet-stream';
    if (byExt.size < 10_000) byExt.set(ext, mime);
  }
  lastExt = raw;
  lastMime = mime;
  return mime;
}

/**
 * "Binary" as the reference defines it: a byte of value 8 or less, or invalid UTF-8 (a sequence cut at the end
 * of the sample is tolerated). Empty samples are text.
 */
export function looksBinary(sample: Uint8Array, truncated: boolean): boolean {
  for (const b of sample) if (b <= 8) return true;
  let body = sample;
  if (truncated) {
    // Drop a trailing incomplete UTF-8 sequence.
    let i = body.length - 1;
    let back = 0;
    while (i >= 0 && back < 3 && (body[i]! & 0xc0) === 0x80) {
      i--;
      back++;
    }
    if (i >= 0 && body[i]! >= 0xc0) body = body.subarray(0, i);
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return false;
  } catch {
    return true;
  }
}

/** True when content sniffing could change the answer (unknown MIME, small enough to be text). */
export function needsSniff(name: string, size: number): boolean {
  return mimeOf(name) === 'application/octet-stream' && size <= TEXT_LIMIT;
}

/** Major brands of HEIF still images (heic/heix: HEVC; mif1: the generic image brand cameras and phones also use). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'mif1']);

/** Whether these first bytes are a HEIF photo: a `ftyp` box at offset 0 with a HEIF major brand. */
export function isHeifBrand(b: Uint8Array): boolean {
  if (b.length < 12) return false;
  const tag = (from: number) => String.fromCharCode(b[from]!, b[from + 1]!, b[from + 2]!, b[from + 3]!);
  return tag(4) === 'ftyp' && HEIF_BRANDS.has(tag(8));
}

/** The resource type of a file from its name, size and (optionally) what a sniff of its first bytes found (sniff-cache.ts). */
export function detectType(name: string, size: number, sniffed?: Sniffed, mime = mimeOf(name)): ResourceType {
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('image/')) return 'image';
  if (mime.endsWith('/pdf')) return 'pdf';
  if (mime === 'application/octet-stream' && sniffed === 'heif') return 'image';
  const textual = TEXTUAL.test(mime) || (mime === 'application/octet-stream' && sniffed === 'text');
  return textual && size <= TEXT_LIMIT ? 'text' : 'blob';
}

const SUBTITLE = /\.(vtt|srt|ass|ssa)$/i;
export const isSubtitle = (name: string) => SUBTITLE.test(name);
export const SUBTITLE_DIRS = /^(sub|subs|subtitles)$/i;
