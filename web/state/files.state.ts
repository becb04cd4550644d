import { proxy, ref } from 'valtio/vanilla';
import { isApiError } from '../api/client';
import { fetchResource, type WebResource } from '../api/resources';

export interface LoadError {
  status: number;
  message: string;
}

/** A listing kept out of valtio's proxying: it can be large and is replaced, never mutated. */
type Listing = ReturnType<typeof ref<WebResource>>;

interface FilesState {
  /** The decoded path last requested ("/a b/"). */
  path: string;
  resource: Listing | null;
  loading: boolean;
  error: LoadError | null;
}

/** The current files request. */
export const files = proxy<FilesState>({ path: '', resource: null, loading: false, error: null });

let current: AbortController | null = null;

/** Loads a path; an answer for a path that is no longer the requested one is ignored. */
export async function openPath(path: string): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  files.path = path;
  files.loading = true;
  files.error = null;
  try {
    const res = await fetchResource(path, controller.signal);
    if (current !== controller) return;
    files.resource = ref(res);
  } catch (e) {
    if (current !== controller) return;
    files.resource = null;
    files.error = isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };
    if (!isApiError(e)) console.error('filedeck: loading failed', e);
  } finally {
    if (current === controller) files.loading = false;
  }
}

/** Leaving the files screen clears the current request. */
export function closeFiles(): void {
  current?.abort();
  current = null;
  files.path = '';
  files.resource = null;
  files.loading = false;
  files.error = null;
}
