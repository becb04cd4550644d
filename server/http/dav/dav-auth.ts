import { AppError } from '../../core/errors';
import { actorFor, type Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import type { ClientIp } from '../client-ip';
import { noteUser } from '../observe/request-record';
import { basicCredentials } from '../plugins/auth.plugin';

/** The challenge on `/dav/` only (never on `/api/`: a browser must not cache Basic credentials that `/api/` takes). */
export const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="Filedeck", charset="UTF-8"' };

const challenge = () => new AppError('UNAUTHORIZED', undefined, { headers: CHALLENGE });

/**
 * The actor of a WebDAV request: HTTP Basic only, never anonymous (docs/decisions/0050-webdav.md). Who the credentials
 * name is decided by `DavLogin.signIn` (an API token, or the account password when allowed and without a second
 * factor; rate-limited; the WebDAV switches); the actor is built by actorFor with the token's limits, as for the API.
 */
export async function davActor(s: Services, ip: ClientIp, request: Request, server: unknown): Promise<Actor> {
  const creds = basicCredentials(request.headers.get('authorization'));
  if (!creds) {
    if (!s.settings.get().webdav.enabled) throw new AppError('NOT_FOUND');
    throw challenge();
  }
  const address = ip.client(request, server as never);
  try {
    const { user, limits } = await s.davLogin.signIn(creds.username, creds.password, address);
    noteUser(request, user.id);
    return actorFor(user, { root: s.config.root, globalRules: s.settings.rules(), followExternalSymlinks: s.config.followExternalSymlinks, address, limits });
  } catch (e) {
    if (e instanceof AppError && e.code === 'UNAUTHORIZED') throw challenge();
    throw e;
  }
}
