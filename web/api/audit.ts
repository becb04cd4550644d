import type { AuditPage } from '../../server/contract/audit';
import { requestJson } from './client';

export { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditAction, type AuditEntry, type AuditPage } from '../../server/contract/audit';

/** Filters of the audit screen, as GET /api/audit takes them (empty values are left out). */
export interface AuditFilter {
  user?: string;
  action?: string;
  since?: string;
  until?: string;
  text?: string;
}

/** GET /api/audit: one page, newest first; `cursor` continues after a previous page (admins only). */
export function fetchAudit(filter: AuditFilter, cursor?: string, limit = 50): Promise<AuditPage> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
  q.set('limit', String(limit));
  if (cursor) q.set('cursor', cursor);
  return requestJson<AuditPage>(`/audit?${q}`);
}
