import { AppError, invalid } from '../core/errors';

export const JSON_LIMIT = 1024 * 1024;

/**
 * A request body as text of at most `limit` bytes, counted as it arrives (a lying or absent Content-Length cannot
 * make us buffer more): 413 past it. No body reads as ''.
 */
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

/** Reads a JSON body of at most `limit` bytes (readCapped). Malformed JSON is a 400, an oversized body a 413. */
export async function readJson(request: Request, limit = JSON_LIMIT): Promise<unknown> {
  const text = await readCapped(request, limit);
  if (text.trim() === '') throw invalid('request body is empty');
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('request body is not valid JSON');
  }
}

/** Reads a JSON object body; anything else (array, string, number) is a 400. */
export async function readJsonObject(request: Request, limit = JSON_LIMIT): Promise<Record<string, unknown>> {
  const v = await readJson(request, limit);
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid('request body must be a JSON object');
  return v as Record<string, unknown>;
}

/** A JSON success body. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(data);
  return new Response(text, {
    status,
    // The length lets the compression hook leave small bodies alone (http/compress.ts).
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-cache, no-store, must-revalidate', ...headers },
  });
}
