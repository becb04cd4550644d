import { Elysia } from 'elysia';
import { invalid } from '../../core/errors';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

const KEYS = ['user', 'action', 'since', 'until', 'text', 'limit', 'cursor'] as const;

/** GET /api/audit?user=&action=&since=&until=&text=&limit=&cursor=: newest first (admins only; the service checks values). */
export function auditRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/audit', async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const q: Partial<Record<(typeof KEYS)[number], string>> = {};
      for (const k of KEYS) {
        const all = params.getAll(k);
        if (all.length > 1) throw invalid(`${k} may be given once`);
        if (all[0] !== undefined && all[0] !== '') q[k] = all[0];
      }
      const limit = q.limit === undefined ? undefined : /^\d{1,6}$/.test(q.limit) ? Number(q.limit) : NaN;
      return json(await s.audit.list({ ...q, limit }));
    }, { auth: 'admin' });
}
