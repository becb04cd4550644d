import { encodePath } from './resources';
import { requestJson } from './client';

export interface Usage {
  used: number;
  total: number;
}

/** GET /api/usage/{path}: used and total bytes of the volume holding a folder. */
export function fetchUsage(path: string, signal?: AbortSignal): Promise<Usage> {
  return requestJson<Usage>(`/usage${encodePath(path.startsWith('/') ? path : `/${path}`)}`, { signal });
}
