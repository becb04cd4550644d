/** The two boot-time switches every preview converter obeys (config enableThumbnails and resizePreview). */
export interface PreviewSwitches {
  enableThumbnails: boolean;
  resizePreview: boolean;
}

/**
 * The one gate in front of every converter: the image worker, heif-convert, pdftoppm and ffmpeg. Returns null
 * when the converter may run for this size, else why not (the message a refused outside program answers with).
 *
 * - A thumbnail is made only with enableThumbnails (the reference's --disableThumbnails turns it off).
 * - A big preview is made only with resizePreview (the reference's --disablePreviewResize turns it off).
 * - An outside program (`program`: PDF, video, HEIC) parses an untrusted file, so it runs only with
 *   enableThumbnails on, whatever the size: thumbnails off means none of them ever runs, which is what the start-up
 *   log and `filedeck doctor` say (tool-thumbs.ts toolSandboxWarning, doctor thumbnailCheck). A HEIC's big
 *   preview therefore needs both switches.
 * When the gate is closed an image whose original the browser can show is served raw (as the reference does), and
 * a kind that only a program could make viewable is refused (UNSUPPORTED, 501) with this message.
 */
export function previewGate(s: PreviewSwitches, size: 'thumb' | 'big', program: boolean): string | null {
  if (size === 'thumb' && !s.enableThumbnails) return 'thumbnails are turned off';
  if (size === 'big' && !s.resizePreview) return 'big previews are turned off (resizePreview)';
  if (program && !s.enableThumbnails) return 'previews made by outside programs (PDF, video, HEIC) are turned off with thumbnails (enableThumbnails)';
  return null;
}

/** Whether any outside program may ever run on this server (the start-up warning and doctor ask only then). */
export const programsMayRun = (s: PreviewSwitches): boolean => previewGate(s, 'thumb', true) === null || previewGate(s, 'big', true) === null;
