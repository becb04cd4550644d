import type { ApiTokenRequest } from '../../contract/accounts';
import { PERMISSIONS, type PermName } from '../../contract/user';
import { invalid } from '../../core/errors';
import { toVirtualPath } from '../../fs/virtual-path';

export const TOKEN_NAME_MAX = 100;
export const TOKEN_DAYS_MAX = 3650;
/** Tokens one user may hold. */
export const TOKENS_PER_USER = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A creation request as checked values: every bad field is a 400 naming it, before anything is looked up. */
export interface ValidTokenRequest {
  name: string;
  perm: PermName[];
  path: string | null;
  readOnly: boolean;
  /** Milliseconds it lives, or null (never expires). */
  lifetimeMs: number | null;
}

export function parseTokenRequest(body: Record<string, unknown>): ValidTokenRequest {
  const b = body as Partial<Record<keyof ApiTokenRequest, unknown>>;
  if (typeof b.name !== 'string') throw invalid('name must be text');
  const name = b.name.trim();
  if (name.length < 1 || name.length > TOKEN_NAME_MAX) throw invalid(`name must be 1 to ${TOKEN_NAME_MAX} characters`);
  if (/[\x00-\x1f\x7f]/.test(name)) throw invalid('name contains control characters');
  if (!Array.isArray(b.perm) || b.perm.some((p) => typeof p !== 'string' || !(PERMISSIONS as readonly string[]).includes(p)))
    throw invalid(`perm must be a list of: ${PERMISSIONS.join(', ')}`);
  const perm = [...new Set(b.perm as PermName[])];
  let path: string | null = null;
  if (b.path !== undefined && b.path !== null && b.path !== '') {
    if (typeof b.path !== 'string') throw invalid('path must be text');
    path = toVirtualPath(b.path).path;
    if (path === '/') path = null; // the whole scope
  }
  if (b.readOnly !== undefined && typeof b.readOnly !== 'boolean') throw invalid('readOnly must be true or false');
  const readOnly = b.readOnly === true;
  let lifetimeMs: number | null = null;
  if (b.expiresInDays !== undefined && b.expiresInDays !== null) {
    const d = b.expiresInDays;
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > TOKEN_DAYS_MAX) throw invalid(`expiresInDays must be a whole number from 1 to ${TOKEN_DAYS_MAX}, or null`);
    lifetimeMs = d * DAY_MS;
  }
  // A command could leave the folder; an admin could change whose folder it is: neither goes with a folder.
  if (path !== null && perm.includes('execute')) throw invalid('a token limited to a folder cannot carry execute');
  if (path !== null && perm.includes('admin')) throw invalid('a token limited to a folder cannot carry admin');
  return { name, perm, path, readOnly, lifetimeMs };
}
