import { expect, test } from 'bun:test';

// The page configuration is read once from the document at import: a server with bubblewrap and pdftoppm and
// ffmpeg but no heif-convert is shown to file-kind.ts through a stand-in document, then taken away again.
const g = globalThis as { document?: unknown };
g.document = { getElementById: () => ({ textContent: JSON.stringify({ EnableThumbs: true, ThumbSandbox: 'bubblewrap', ThumbTools: { pdf: true, video: true, heic: false } }) }) };
const { hasThumbnail, isHeif, missingThumbTool } = await import('../../web/components/ui/file-kind');
delete g.document;

test('without heif-convert a HEIC gets no thumbnail and the info prompt names the package; other images are untouched', () => {
  expect(['a.heic', 'B.HEIF', 'c.hif', 'd.jpg'].map(isHeif)).toEqual([true, true, true, false]);
  expect(hasThumbnail('image', 'IMG_1.heic')).toBe(false);
  expect(hasThumbnail('image', 'photo.jpg')).toBe(true);
  expect(missingThumbTool('image', 'IMG_1.heic')).toBe('viewers.heicNeedsTool');
  expect(missingThumbTool('image', 'photo.jpg')).toBeNull();
  expect(missingThumbTool('pdf', 'a.pdf')).toBeNull();
});
