import { invalid } from '../../core/errors';

/**
 * Words a slug may not be: the app's own first path segments and names people would mistake for the app's pages
 * (`/share/api` must never look like an API). Compared after folding case.
 */
export const RESERVED_SLUGS = new Set([
  'api', 'static', 'login', 'logout', 'share', 'shares', 'settings', 'files', 'dav', 'webdav', 'health', 'ready', 'metrics',
  'public', 'raw', 'dl', 'tus', 'upload', 'admin', 'users', 'user', 'account', 'signup', 'sso', 'oidc', 'assets', 'index',
  'favicon', 'robots', 'manifest', 'sw', 'search', 'trash', 'versions', 'jobs', 'audit', 'preview', 'thumb', 'subtitle',
  'notifications', 'new', 'edit', 'null', 'undefined',
]);

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,62})[a-z0-9]$/;

/**
 * A slug as the owner typed it, checked (decision 0051): 3–64 of [a-z0-9-], no leading or trailing '-', not
 * reserved. Upper-case letters are folded (slugs are case-insensitive); anything else is a 400. Uniqueness is
 * the store's (against slugs and hashes alike).
 */
export function normaliseSlug(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid('slug must be text');
  const slug = raw.trim().toLowerCase();
  if (slug.length < 3 || slug.length > 64) throw invalid('slug must be 3 to 64 characters');
  if (!SLUG.test(slug)) throw invalid('slug may hold only a-z, 0-9 and "-", and may not start or end with "-"');
  if (RESERVED_SLUGS.has(slug)) throw invalid(`"${slug}" is reserved`);
  return slug;
}

/** Whether a name in a public URL can be a slug at all (hashes are 12 base64url characters, often mixed case). */
export const maybeSlug = (name: string): boolean => name.length >= 3 && name.length <= 64 && SLUG.test(name.toLowerCase());
