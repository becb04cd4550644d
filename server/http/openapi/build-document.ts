import type { Auth, RouteDoc, RouteDocs } from './route-doc';

/** What the builder reads of each entry of Elysia's `app.routes`. */
export interface RouteEntry {
  method: string;
  path: string;
  hooks?: { query?: unknown; params?: unknown };
}

/** Routes that are not operations: the API's 404 fallback (any method under /api/ that matched nothing). */
/**
 * Routes that are no operation: the API's catch-all 404, and WebDAV (`/dav`, `/dav/*`): its methods (PROPFIND, MKCOL,
 * COPY, LOCK…) are not HTTP methods OpenAPI can describe, and its contract is RFC 4918 (docs/decisions/0050-webdav.md).
 */
export const NOT_OPERATIONS = new Set(['ALL /api/*', ...['ALL', 'GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].flatMap((m) => [`${m} /dav`, `${m} /dav/*`])]);

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  share: [],
  user: [{ token: [] }],
  admin: [{ token: [] }],
  metrics: [{ metricsToken: [] }, {}],
};

const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/** "/api/users/:id" -> "/api/users/{id}"; "/api/raw/*" -> "/api/raw/{path}". */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');

function content(b: { schema?: unknown; example?: unknown; type?: string }) {
  if (!b.schema) return undefined;
  const media: Record<string, unknown> = { schema: plain(b.schema) };
  if (b.example !== undefined) media.example = b.example;
  return { [b.type ?? 'application/json']: media };
}

function parameters(r: RouteEntry, doc: RouteDoc) {
  const out: Record<string, unknown>[] = [];
  for (const m of r.path.matchAll(/:([A-Za-z0-9_]+)/g)) out.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  if (r.path.endsWith('*'))
    out.push({ name: 'path', in: 'path', required: true, description: doc.wildcard ?? 'the file or folder path inside your scope; slashes are part of it (may be empty)', schema: { type: 'string' }, 'x-slashes': true });
  const declared = (r.hooks?.query as { properties?: Record<string, unknown>; required?: string[] } | undefined)?.properties ?? {};
  const required = new Set((r.hooks?.query as { required?: string[] } | undefined)?.required ?? []);
  const names = new Set([...Object.keys(doc.query ?? {}), ...Object.keys(declared)]);
  for (const name of names)
    out.push({ name, in: 'query', required: required.has(name), description: doc.query?.[name], schema: declared[name] ? plain(declared[name]) : { type: 'string' } });
  for (const [name, description] of Object.entries(doc.headers ?? {})) out.push({ name, in: 'header', description, schema: { type: 'string' } });
  return out;
}

/**
 * The OpenAPI 3.1 document of the API, generated from the app's routes and their descriptions: every route that
 * is an operation appears; one without a description appears marked `x-undocumented` (the coverage test fails).
 */
export function buildDocument(routes: RouteEntry[], docs: RouteDocs, opts: { baseURL: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = opts.baseURL && r.path.startsWith(opts.baseURL) ? r.path.slice(opts.baseURL.length) || '/' : r.path;
    const key = `${r.method} ${path}`;
    if (NOT_OPERATIONS.has(key)) continue;
    const doc = docs[key];
    const entry = { ...r, path };
    const method = r.method === 'WS' ? 'get' : r.method.toLowerCase();
    const op: Record<string, unknown> = doc
      ? {
          operationId: `${method}${openApiPath(path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
          summary: doc.summary,
          tags: doc.tags,
          ...(doc.description ? { description: doc.description } : {}),
          security: SECURITY[doc.auth],
          'x-auth': doc.auth,
          parameters: parameters(entry, doc),
          ...(doc.body ? { requestBody: { required: true, content: content(doc.body) } } : {}),
          responses: Object.fromEntries(Object.entries(doc.responses).map(([status, res]) => [status, { description: res.description, ...(res.schema ? { content: content(res) } : {}) }])),
          ...(r.method === 'WS' ? { 'x-websocket': true } : {}),
        }
      : { summary: key, 'x-undocumented': true, responses: { default: { description: 'undocumented' } } };
    (paths[openApiPath(path)] ??= {})[method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Filedeck API', version: opts.version, description: 'Generated from the server\'s routes. Errors answer the text envelope "<code> <Status Text> (message)".' },
    servers: [{ url: opts.baseURL || '/' }],
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'X-Auth', description: 'the token from POST /api/login' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'config metricsToken' },
      },
    },
    paths,
  };
}
export type OpenApiDocument = ReturnType<typeof buildDocument>;
