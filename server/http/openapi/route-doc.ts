import type { TSchema } from 'elysia';

/** Who may call an operation: nobody in particular, a logged-in user, an admin, a share link, the metrics scraper. */
export type Auth = 'none' | 'user' | 'admin' | 'share' | 'metrics';

/** A body: its schema, an example that must validate against it (tests/api/openapi.test.ts), its media type. */
export interface Body {
  schema: TSchema;
  example?: unknown;
  /** Default application/json. */
  type?: string;
}

/**
 * The description of one route, kept next to the route file (`routes/<name>.api.ts`) under the key
 * "<METHOD> <path>" exactly as Elysia lists it in `app.routes` (without baseURL). Path and query parameters that
 * the route declares with `t` schemas are read from the route itself.
 */
export interface RouteDoc {
  summary: string;
  tags: string[];
  auth: Auth;
  description?: string;
  /** What the `*` of the path stands for (default: the file or folder path, slashes included). */
  wildcard?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Body;
  responses: Record<number, { description: string } & Partial<Body>>;
}

export type RouteDocs = Record<string, RouteDoc>;

/** A JSON body. */
export const json = (schema: TSchema, example?: unknown): Body => ({ schema, example });
/** A body of another media type. */
export const media = (type: string, schema: TSchema, example?: unknown): Body => ({ schema, example, type });
