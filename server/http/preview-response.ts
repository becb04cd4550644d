import type { Actor } from '../services/actor';
import type { Services } from '../services/services';
import { baseName } from '../fs/virtual-path';
import { openRegular } from '../fs/open-regular';
import { sendFile } from './send-file';

/**
 * A preview as an HTTP answer, the same for the signed-in preview route and the share page's public one: the
 * original through sendFile where resizing does not apply, else the cached render with the source file's time as
 * its validators (Last-Modified, ETag, 304s and `Cache-Control: private` as every download has).
 */
export async function previewResponse(s: Services, request: Request, actor: Actor, size: string, path: string): Promise<Response> {
  const r = await s.previews.preview(actor, size, path, request.signal);
  if (r.kind === 'raw') return sendFile(request, await actor.fs.openReal(r.real), baseName(path), true);
  // The server's own cache file (not a user path); its validators are the source file's time.
  const cached = await openRegular(r.file);
  const name = baseName(path).replace(/\.[^.]*$/, '') + (r.mime === 'image/png' ? '.png' : '.jpg');
  return sendFile(request, { handle: cached.handle, stats: { size: cached.stats.size, mtimeMs: r.modified.getTime() } }, name, true);
}
