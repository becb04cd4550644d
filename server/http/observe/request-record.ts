/**
 * What the HTTP layer learns about one request while it runs: its id and start time (set first), the matched
 * route pattern (set when routing matched) and the user (set by the auth plugin). Keyed by the Request object,
 * so nothing has to be threaded through Elysia's context and a record dies with its request.
 */
export interface RequestRecord {
  id: string;
  start: number;
  /** The route pattern without baseURL ("/api/resources/*"): never a user's path. */
  route?: string;
  userId?: number;
}

const records = new WeakMap<Request, RequestRecord>();

export function startRecord(request: Request, id: string): RequestRecord {
  const rec: RequestRecord = { id, start: performance.now() };
  records.set(request, rec);
  return rec;
}

export const recordOf = (request: Request): RequestRecord | undefined => records.get(request);

/** Called by the auth plugin once it knows who is asking (request logs carry the user id). */
export function noteUser(request: Request, userId: number): void {
  const rec = records.get(request);
  if (rec) rec.userId = userId;
}
