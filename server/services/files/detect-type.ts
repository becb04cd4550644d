import type { ResourceType } from '../../contract/resource';

const BY_EXT: Record<string, ResourceType> = {};
const add = (t: ResourceType, exts: string) => exts.split(' ').forEach((e) => (BY_EXT[e] = t));
add('image', '.jpg .jpeg .png .gif .bmp .webp .svg .tif .tiff .ico .avif .heic .dng .cr2 .nef');
add('audio', '.mp3 .wav .ogg .oga .flac .m4a .aac .opus .weba');
add('video', '.mp4 .webm .mkv .mov .avi .m4v .ogv .3gp');
add('pdf', '.pdf');
add('text', '.txt .md .markdown .json .yaml .yml .toml .ini .conf .cfg .log .csv .tsv .xml .html .htm .css .js .mjs .cjs .jsx .tsx .ts .py .rb .go .rs .c .h .cpp .hpp .java .kt .swift .sh .bash .zsh .fish .sql .php .pl .lua .r .env .gitignore .dockerfile .vue .svelte .srt .vtt .tex');

/** Type from the extension alone; the files issue adds content sniffing. */
export function typeByExtension(ext: string): ResourceType {
  return BY_EXT[ext.toLowerCase()] ?? 'blob';
}
