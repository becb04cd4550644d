/**
 * The worker thread of heavy work (worker-pool.ts starts it): checksums, image previews, subtitle conversions and
 * bcrypt, each done with synchronous calls here so that neither the event loop nor the runtime's shared thread
 * pool (which serves every file-system call) waits for them. Files come as descriptors the main thread opened with openRegular
 * (fs/open-regular.ts: regular files only) and closes after this worker answered; nothing here opens a path.
 * `cancel` is a shared flag the main thread raises when the client went away or the time limit passed.
 */
import { fstatSync, readSync } from 'node:fs';
import { AppError } from '../../core/errors';
import { convertSubtitle } from '../files/subtitle-convert';
import { MAX_SOURCE_BYTES, renderImage, type PreviewSize } from '../preview/image-render';

declare const self: Worker;

export type WorkJob =
  | { kind: 'hash'; fd: number; algo: 'md5' | 'sha1' | 'sha256' | 'sha512'; cancel: SharedArrayBuffer }
  | { kind: 'image'; fd: number; size: PreviewSize; png: boolean; cancel: SharedArrayBuffer }
  // An image another program decoded first (heif-convert's JPEG of a HEIC), bounded by that program's output cap.
  | { kind: 'image-bytes'; bytes: Uint8Array; size: PreviewSize; png: boolean; cancel: SharedArrayBuffer }
  // An SRT or ASS file to WebVTT (files/subtitles.ts); files above `limit` bytes are refused, not read whole.
  | { kind: 'subtitle'; fd: number; format: 'srt' | 'ass'; limit: number; cancel: SharedArrayBuffer }
  | { kind: 'bcrypt-hash'; password: string; cost: number; cancel: SharedArrayBuffer }
  | { kind: 'bcrypt-verify'; password: string; hash: string; cancel: SharedArrayBuffer };

const CHUNK = 1024 * 1024;
let imageLib: typeof import('@napi-rs/image') | null = null;

const stopped = () => new AppError('UNAVAILABLE', 'the work was stopped');

function hash(fd: number, algo: string, stop: () => boolean): string {
  const h = new Bun.CryptoHasher(algo as 'sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let pos = 0; ; ) {
    if (stop()) throw stopped(); // checked every MiB: a cancelled checksum stops reading within one chunk
    const n = readSync(fd, buf, 0, CHUNK, pos);
    if (n === 0) return h.digest('hex');
    h.update(buf.subarray(0, n));
    pos += n;
  }
}

const tooBigImage = () => new AppError('TOO_LARGE', 'the image is too large to preview');

function readAll(fd: number, stop: () => boolean, limit = MAX_SOURCE_BYTES, tooBig = tooBigImage): Uint8Array {
  const size = fstatSync(fd).size;
  if (size > limit) throw tooBig();
  const buf = Buffer.allocUnsafe(size + 1);
  let len = 0;
  while (len < buf.length) {
    if (stop()) throw stopped();
    const n = readSync(fd, buf, len, Math.min(CHUNK * 8, buf.length - len), len);
    if (n === 0) break;
    len += n;
  }
  // One byte past the size was asked for: a file that grew since its stat is refused, not decoded.
  if (len > size) throw tooBig();
  return buf.subarray(0, len);
}

async function perform(job: WorkJob): Promise<unknown> {
  const flag = new Int32Array(job.cancel);
  const stop = () => Atomics.load(flag, 0) !== 0;
  switch (job.kind) {
    case 'hash':
      return hash(job.fd, job.algo, stop);
    case 'image':
    case 'image-bytes': {
      // The image library is an 18 MB native add-on: loaded on a worker's first preview, not at start-up.
      imageLib ??= await import('@napi-rs/image');
      const input = job.kind === 'image' ? readAll(job.fd, stop) : job.bytes;
      if (input.length > MAX_SOURCE_BYTES) throw new AppError('TOO_LARGE', 'the image is too large to preview');
      const out = renderImage(imageLib, input, job.size, job.png, stop);
      return out ? new Uint8Array(out) : null;
    }
    case 'subtitle': {
      const tooBig = () => new AppError('TOO_LARGE', `subtitle files are converted up to ${job.limit / 1024 / 1024} MiB`);
      return convertSubtitle(readAll(job.fd, stop, job.limit, tooBig), job.format, stop);
    }
    case 'bcrypt-hash':
      return Bun.password.hashSync(job.password, { algorithm: 'bcrypt', cost: job.cost });
    case 'bcrypt-verify':
      try {
        return Bun.password.verifySync(job.password, job.hash);
      } catch {
        return false; // a malformed stored hash is a failed check, not an error
      }
  }
}

self.onmessage = async (e: MessageEvent<WorkJob & { id: number }>) => {
  const { id } = e.data;
  try {
    postMessage({ id, ok: true, value: await perform(e.data) });
  } catch (err) {
    if (err instanceof AppError) postMessage({ id, ok: false, code: err.code, detail: err.detail });
    else postMessage({ id, ok: false, code: 'INTERNAL', cause: err instanceof Error ? err.message : String(err) }); // logged, never sent
  }
};
