import { isAppError } from '../../core/errors';
import type { Actor } from '../actor';
import { extractTarget } from '../archive/extract';
import { authorizePath, type Access } from '../policy/file-policy';
import type { ValidRequest } from './job-request';

/** What each kind needs of its items, when it is queued and for as long as it runs (the work itself is authorized item by item). */
export const NEEDS: Record<ValidRequest['kind'], Access> = { copy: 'create', move: 'rename', delete: 'delete', archive: 'create', extract: 'create' };

/**
 * The job-level decision, the same when a job is queued and each time it is checked while it runs (jobs.service.ts,
 * between items and about once a second): the owner may do this kind of thing to every item, may read the
 * destination, and (extraction) create the folder it lands in; permissions and rules through the file policy.
 * Throws the policy's 403.
 */
export function authorizeJob(actor: Actor, req: ValidRequest, items: readonly string[] = req.items): void {
  authorizePath(actor, NEEDS[req.kind], ...items);
  if (req.kind === 'copy' || req.kind === 'move' || req.kind === 'archive') authorizePath(actor, 'read', req.destination!);
  if (req.kind === 'extract') authorizePath(actor, 'create', extractTarget(req.items[0]!, req.destination));
}

/**
 * Why a running job must stop, or null while its owner may still run it: `now` is the owner as the database has
 * them now (null when the account is gone); `scope` the scope the job started in (paths mean something else in
 * another scope, so a changed scope ends the job too). Read from the shared users table, so a change made through
 * any instance or the CLI is seen. `items`: whose rules to check (all of them about once a second; none before each
 * item, which its own operation authorizes through the file policy, so a 10,000-item job is not checked 10,000²
 * times).
 */
export function lostReason(req: ValidRequest, scope: string, now: Actor | null, items: readonly string[] = req.items): string | null {
  if (!now?.user) return 'stopped: the user no longer exists';
  if (now.user.scope !== scope) return 'stopped: the user\'s scope changed';
  try {
    authorizeJob(now, req, items);
  } catch (e) {
    const why = isAppError(e) ? e.detail ?? 'access denied' : 'access denied';
    return `stopped: the user may no longer do this (${why})`;
  }
  return null;
}
