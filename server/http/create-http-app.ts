import { Elysia } from 'elysia';
import type { Services } from '../services/services';
import { compressResponse } from './compress';
import { rawPath } from './request-path';
import { makeClientIp } from './client-ip';
import { authPlugin, importSigningKey } from './plugins/auth.plugin';
import { errorPlugin, textResponse } from './plugins/error.plugin';
import { staticPlugin } from './plugins/static.plugin';
import { authRoutes } from './routes/auth.routes';
import { resourcesRoutes } from './routes/resources.routes';
import { settingsRoutes } from './routes/settings.routes';
import { usersRoutes } from './routes/users.routes';
import { rawRoutes } from './routes/raw.routes';
import { previewRoutes } from './routes/preview.routes';
import { searchRoutes } from './routes/search.routes';
import { tusRoutes } from './routes/tus.routes';
import { sharesRoutes } from './routes/shares.routes';
import { publicRoutes } from './routes/public.routes';
import { publicUploadRoutes } from './routes/public-upload.routes';
import { notificationsRoutes } from './routes/notifications.routes';
import { commandRoutes } from './routes/command.routes';
import { subtitleRoutes } from './routes/subtitle.routes';
import { healthRoutes } from './routes/health.routes';
import { openapiPlugin } from './openapi/openapi.plugin';
import { requestObserver } from './observe/request-observer';
import { trashRoutes } from './routes/trash.routes';
import { versionsRoutes } from './routes/versions.routes';
import { auditRoutes } from './routes/audit.routes';
import { jobsRoutes } from './routes/jobs.routes';
import { factorsRoutes } from './routes/factors.routes';
import { accountRoutes } from './routes/account.routes';
import { userAccessRoutes } from './routes/user-access.routes';
import { ssoRoutes } from './routes/sso.routes';
import { davRoutes } from './routes/dav.routes';
import { DAV_LOCK_METHODS } from './dav/dav-lock-methods';

/** The Elysia app for a set of services: everything lives under config.baseURL. */
export async function createHttpApp(s: Services) {
  const ip = makeClientIp(s.config.trustedProxies);
  const auth = authPlugin(s, ip, await importSigningKey(s.settings.signingKey()));
  const base = s.config.baseURL;

  const routes = new Elysia({ prefix: base })
    .use(healthRoutes(s, ip))
    .use(authRoutes(s, auth, ip))
    .use(ssoRoutes(s, auth, ip))
    .use(usersRoutes(s, auth))
    .use(settingsRoutes(s, auth))
    .use(resourcesRoutes(s, auth))
    .use(rawRoutes(s, auth))
    .use(previewRoutes(s, auth))
    .use(searchRoutes(s, auth))
    .use(tusRoutes(s, auth))
    .use(sharesRoutes(s, auth))
    .use(publicRoutes(s, auth, ip))
    .use(publicUploadRoutes(s, auth, ip))
    .use(notificationsRoutes(s, auth))
    .use(commandRoutes(s, auth))
    .use(subtitleRoutes(s, auth))
    .use(trashRoutes(s, auth))
    .use(versionsRoutes(s, auth))
    .use(auditRoutes(s, auth))
    .use(jobsRoutes(s, auth))
    .use(factorsRoutes(s, auth, ip))
    .use(accountRoutes(s, auth))
    .use(userAccessRoutes(s, auth))
    .use(openapiPlugin(s, auth, () => app.routes))
    .use(davRoutes(s, ip, DAV_LOCK_METHODS))
    .all('/api/*', () => textResponse(404))
    .use(await staticPlugin(s));

  const probes = new Set(['/health', '/ready', '/metrics'].map((p) => base + p));
  // Settings changed by the CLI or another instance apply from the next request on. Checked around the app's fetch,
  // not in an async onRequest hook, which made every request's handler async: when the change mark shows the
  // settings current, the request goes straight on. A failed check is thrown from onRequest below, so the error
  // plugin answers it as before. The probes read no settings: /health must answer and /ready must say why while
  // the database is down.
  const settingsFailed = new WeakMap<Request, unknown>();
  const withFreshSettings = (fn: (r: Request) => unknown) => (r: Request) => {
    const check = probes.has(rawPath(r.url)) ? null : s.settings.fresh();
    return check ? check.then(() => fn(r), (e: unknown) => (settingsFailed.set(r, e ?? new Error('settings')), fn(r))) : fn(r);
  };
  // Request ids, request metrics and JSON request logs see every response (http/observe/request-observer.ts).
  const observer = requestObserver(s, ip, () => (app as unknown as { server?: unknown }).server ?? null);
  const app = new Elysia()
    // The last wrap is the outermost: the observer sees the settings check's time and outcome too.
    .wrap(withFreshSettings as never)
    .wrap(observer.wrap as never)
    .onTransform({ as: 'global' }, observer.transform)
    .use(errorPlugin(s.log, ip.client))
    // JSON answers above a small size are compressed for clients that accept it (streamed, on the thread pool).
    .mapResponse({ as: 'global' }, ({ request, responseValue }) => (responseValue instanceof Response ? compressResponse(request, responseValue) : undefined))
    .onRequest(({ request }) => {
      const failed = settingsFailed.get(request);
      if (failed !== undefined) throw failed;
      // nosniff and no-referrer go on every response in the observer (observe/request-observer.ts stamp), not in
      // `set.headers`, which would make Elysia rebuild every Response.
      // The bare prefix gets a slash (the router would treat "/base" and "/base/" alike).
      if (base && rawPath(request.url) === base) return new Response(null, { status: 301, headers: { Location: `${base}/` } });
    });
  return app.use(routes);
}
export type HttpApp = Awaited<ReturnType<typeof createHttpApp>>;
