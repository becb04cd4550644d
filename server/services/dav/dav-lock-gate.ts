import { AppError, type ErrorCode } from '../../core/errors';
import type { Actor } from '../actor';

/**
 * The seam between the WebDAV methods and WebDAV locks (RFC 4918 §6–7, §10.4 If, §9.10 LOCK, §9.11 UNLOCK). The
 * methods (dav-methods) never decide about locks themselves: before any change they ask `assertMayChange`, after a
 * MOVE/COPY/DELETE they tell `moved`/`removed`, and PROPFIND asks `discovery`. The lock service implements it; until
 * then `NO_LOCKS` answers as a server without locks would.
 */
export interface DavLockGate {
  /**
   * Throws AppError LOCKED (423) unless every lock covering one of `paths` (and, with `depth: 'infinity'`, any lock
   * below them) is owned by `actor` and its token is submitted in the request's If header (`ifHeader`, raw), and
   * throws PRECONDITION_FAILED (412) when the If header's conditions (tokens, ETags) do not hold for the request.
   * Paths are virtual paths of the actor's scope. Untagged If lists are about the request-URI: the first path that
   * is not directly followed by a child of it (a parent listed at depth 0 before its member is skipped).
   */
  assertMayChange(actor: Actor, paths: { path: string; depth: '0' | 'infinity' }[], ifHeader: string | null, etagOf: (path: string) => Promise<string | null>): Promise<void>;
  /** The active locks on `path` (for the lockdiscovery property): XML fragments' data, not XML. */
  discovery(actor: Actor, path: string): Promise<ActiveLock[]>;
  /** `from` now lives at `to`: its locks (and those below) are removed, as RFC 4918 §7.7 says for MOVE. */
  moved(actor: Actor, from: string, to: string): Promise<void>;
  /** `path` and everything below it is gone: its locks go. */
  removed(actor: Actor, path: string): Promise<void>;
}

/** One active lock as PROPFIND's lockdiscovery and LOCK's answer show it. */
export interface ActiveLock {
  token: string;
  /** The lock root: the virtual path the LOCK request named. */
  root: string;
  scope: 'exclusive' | 'shared';
  depth: '0' | 'infinity';
  /** The owner element as the client sent it (raw XML, already checked for size), or ''. */
  ownerXml: string;
  /** Seconds left, or null for Infinite. */
  timeoutSeconds: number | null;
}

/** A server without locks: nothing is ever locked, an If header with a lock token fails as an unknown token would. */
export const NO_LOCKS: DavLockGate = {
  async assertMayChange() {},
  async discovery() {
    return [];
  },
  async moved() {},
  async removed() {},
};

/**
 * A refusal RFC 4918 names with a precondition element (§16): the WebDAV answer's body is
 * `<D:error><D:{condition}>` holding one `<D:href>` per path of `paths` (virtual paths of the actor's scope; the
 * HTTP layer encodes them), e.g. 423 `lock-token-submitted` naming the locked resource, 409
 * `lock-token-matches-request-uri`, 423 `no-conflicting-lock`.
 */
export class DavConditionError extends AppError {
  constructor(code: ErrorCode, readonly condition: string, readonly paths: string[] = [], detail?: string) {
    super(code, detail);
  }
}
