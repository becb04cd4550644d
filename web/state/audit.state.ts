import { proxy } from 'valtio';
import { fetchAudit, type AuditEntry, type AuditFilter } from '../api/audit';
import { isApiError } from '../api/client';

interface AuditState {
  filter: AuditFilter;
  entries: AuditEntry[] | null;
  /** Cursor of the next page; null when the last page is shown. */
  next: string | null;
  loading: boolean;
  error: { status: number; message: string } | null;
}

export const auditState = proxy<AuditState>({ filter: {}, entries: null, next: null, loading: false, error: null });

/** Each load's number: only the newest one's answer is shown (a filter applied while a page loads wins). */
let seq = 0;

/** Loads the first page for the current filter, or (more) the next page after what is shown. */
export async function loadAudit(more = false): Promise<void> {
  if (more && (auditState.loading || !auditState.next)) return;
  const mine = ++seq;
  auditState.loading = true;
  auditState.error = null;
  try {
    const page = await fetchAudit({ ...auditState.filter }, more ? auditState.next ?? undefined : undefined);
    if (mine !== seq) return;
    auditState.entries = more && auditState.entries ? [...auditState.entries, ...page.entries] : page.entries;
    auditState.next = page.next;
  } catch (e) {
    if (mine !== seq) return;
    // A bad filter (400) keeps the table and says why; anything else replaces it with the error state.
    auditState.error = isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };
  } finally {
    if (mine === seq) auditState.loading = false;
  }
}

/** Applies new filters and reloads from the newest entry. */
export function applyAuditFilter(filter: AuditFilter): Promise<void> {
  auditState.filter = filter;
  return loadAudit(false);
}
