import { AppError } from '../../core/errors';

/** A request body as text, counted as it arrives (a lying or absent Content-Length cannot make us buffer more): 413 past `limit`. */
export async function readCapped(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new AppError('TOO_LARGE', `request body is larger than ${limit} bytes`);
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new AppError('TOO_LARGE', `request body is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether a request carries a body with at least one byte (MKCOL: 415), reading at most a little of it. */
export async function hasBody(request: Request): Promise<boolean> {
  if (!request.body) return false;
  if (request.headers.get('content-length') === '0') return false;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    if (value.byteLength > 0) {
      await reader.cancel().catch(() => {});
      return true;
    }
  }
}
