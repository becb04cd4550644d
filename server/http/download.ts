import { invalid } from '../core/errors';
import { baseName } from '../fs/virtual-path';
import type { Actor } from '../services/actor';
import { authorizePath } from '../services/policy/file-policy';
import { archiveTargets, createArchive } from '../services/archive/archive.service';
import { disposition, sendFile } from './send-file';
import { userBytesHeaders } from './user-bytes';

/** Streams one file, or an archive of a folder / a `files=` selection, to an actor allowed to download. */
export async function download(request: Request, actor: Actor, path: string): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const files = q.get('files');
  authorizePath(actor, 'download', path);
  if (files === null) {
    const { real, stats } = await actor.fs.stat(path);
    if (!stats.isDirectory()) {
      if (!stats.isFile()) throw invalid('only regular files can be downloaded');
      return sendFile(request, await actor.fs.openReal(real), baseName(path) || 'file', q.get('inline') === 'true');
    }
  }
  const { name, contentType, stream } = await createArchive(actor, archiveTargets(path, files), q.get('algo'), request.signal);
  return new Response(stream, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': disposition('attachment', name),
      'Cache-Control': 'private',
      ...userBytesHeaders(contentType),
    },
  });
}
