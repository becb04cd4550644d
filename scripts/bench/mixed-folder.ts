import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small folder as people have them (issue 39): 20 files of mixed types, some whose extension tells their type
 * (.md, .json, .jpg…) and some whose content must be sniffed to tell text from binary (.bin, .dat, no extension).
 * Each file holds a few hundred bytes of what its name says, so a sniff reads real content.
 */
const TEXT = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n'.repeat(8);
const BINARY = Uint8Array.from({ length: 600 }, (_, i) => (i * 37) & 0xff);

const FILES: [string, 'text' | 'binary'][] = [
  ['notes.md', 'text'], ['data.json', 'text'], ['firmware.bin', 'binary'], ['README', 'text'], ['Makefile', 'text'],
  ['photo.jpg', 'binary'], ['archive.zip', 'binary'], ['report.pdf', 'binary'], ['song.mp3', 'binary'], ['clip.mp4', 'binary'],
  ['config.yaml', 'text'], ['run.sh', 'text'], ['LICENSE', 'text'], ['dump.dat', 'binary'], ['image.png', 'binary'],
  ['table.csv', 'text'], ['page.html', 'text'], ['core', 'binary'], ['backup.bak', 'binary'], ['changes.log', 'text'],
];

/** Writes the 20 files into `dir` (created). */
export function makeMixedFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, kind] of FILES) writeFileSync(join(dir, name), kind === 'text' ? TEXT : BINARY);
}
