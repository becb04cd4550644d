import { expect, test } from 'bun:test';
import { join } from 'node:path';

// A server with bubblewrap, pdftoppm and ffmpeg but no heif-convert, as file-kind.ts sees it through the page
// configuration (read in a process of its own: see the fixture).
test('without heif-convert a HEIC gets no thumbnail and the info prompt names the package; other images are untouched', () => {
  const r = Bun.spawnSync([process.execPath, join(import.meta.dir, 'fixtures/file-kind-heic.ts')]);
  expect(r.stderr.toString()).toBe('');
  expect(JSON.parse(r.stdout.toString())).toEqual({
    isHeif: [true, true, true, false],
    thumbHeic: false,
    thumbJpg: true,
    missingHeic: 'viewers.heicNeedsTool',
    missingJpg: null,
    missingPdf: null,
  });
});
