import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { AppError } from '../../core/errors';
import type { Actor } from '../../services/actor';
import { NOT_ALLOWED } from '../../services/runner/runner.service';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { pathAfter } from '../request-path';

interface Conn {
  started: boolean;
  abort: AbortController;
}

/** Browsers always send Origin on a WebSocket: it must name this host (cross-site pages cannot drive the shell). */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (!origin) return true;
  try {
    return new URL(origin).host === (request.headers.get('host') ?? new URL(request.url).host);
  } catch {
    return false;
  }
}

/** The last text frame of a command that failed; the reference's shell prints it as is, like Go's exec error. */
export const exitLine = (code: number) => `exit status ${code}`;

/**
 * WebSocket /api/command/{path}: the client sends one command line; output lines arrive as text frames as they
 * are printed. Only text frames are ever sent (the reference's shell appends every frame as text). A non-zero
 * exit adds the text frame `exit status N`; then the socket closes with 1000 on success or 4000+N, so a client
 * can tell that line from output that merely looks like it. Refusals send one text (NOT_ALLOWED, or why exec is
 * off) and close with 1008. Closing the socket kills the command and everything it started. Authentication is
 * the `auth` cookie (our web app) or `?auth=` (the reference's client), read by the auth plugin.
 */
export function commandRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/command`;
  const conns = new Map<string, Conn>();
  const refuse = (ws: { send(t: string): unknown; close(c?: number, r?: string): unknown }, text = NOT_ALLOWED) => {
    ws.send(text);
    ws.close(1008, text.slice(0, 100));
  };
  return new Elysia().use(auth).ws('/api/command/*', {
    auth: 'user',
    open(ws) {
      conns.set(ws.id, { started: false, abort: new AbortController() });
      const data = ws.data as unknown as { request: Request };
      if (!sameOrigin(data.request)) refuse(ws, 'Cross-origin requests are not allowed.');
      else if (!s.runner.enabled) refuse(ws, s.runner.refusal);
    },
    async message(ws, message) {
      const conn = conns.get(ws.id);
      const line = typeof message === 'string' ? message : String(message ?? '');
      if (!conn || conn.started || !line.trim()) return; // one command per connection; blank lines are skipped
      conn.started = true;
      const { actor, request } = ws.data as unknown as { actor: Actor; request: Request };
      let prepared;
      try {
        prepared = await s.runner.prepare(actor, pathAfter(request, P).path, line.trim());
      } catch (e) {
        return refuse(ws, e instanceof AppError && e.detail ? e.detail : NOT_ALLOWED);
      }
      s.log.info(`command by ${actor.user?.username}: ${prepared.argv.join(' ')} (in ${prepared.cwd})`);
      const code = await s.runner.run(prepared, (_stream, text) => void ws.send(text), conn.abort.signal);
      if (conn.abort.signal.aborted) return;
      if (code !== 0) ws.send(exitLine(code));
      ws.close(code === 0 ? 1000 : 4000 + Math.min(Math.max(code, 0), 999), `exit ${code}`);
    },
    close(ws) {
      conns.get(ws.id)?.abort.abort();
      conns.delete(ws.id);
    },
  });
}
