import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeTiff } from '../../state/preview.state';

/** A TIFF-family image (TIFF, DNG, CR2, NEF) decoded in the browser into a canvas. */
export function TiffCanvas({ path, name }: { path: string; name: string }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [status, setStatus] = useState<'decoding' | 'done' | 'failed'>('decoding');

  useEffect(() => {
    const controller = new AbortController();
    setStatus('decoding');
    decodeTiff(path, controller.signal)
      .then((img) => {
        const el = canvas.current;
        const ctx = el?.getContext('2d');
        if (controller.signal.aborted || !el || !ctx) return;
        el.width = img.width;
        el.height = img.height;
        ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data.buffer as ArrayBuffer, img.data.byteOffset, img.width * img.height * 4), img.width, img.height), 0, 0);
        setStatus('done');
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('filedeck: could not decode', path, e);
        setStatus('failed');
      });
    return () => controller.abort();
  }, [path]);

  return (
    <>
      <canvas ref={canvas} className="previewer__image" data-testid="preview-canvas" data-status={status} role="img" aria-label={name} hidden={status !== 'done'} />
      {status !== 'done' && (
        <p className="previewer__status" role="status">
          {t(status === 'failed' ? 'preview.decodeFailed' : 'preview.decoding')}
        </p>
      )}
    </>
  );
}
