/** A claim by dotted path (`realm_access.roles`); a claim whose own name holds the dots is found first. */
export function claimAt(claims: Record<string, unknown> | undefined, path: string): unknown {
  if (!claims || !path) return undefined;
  if (path in claims) return claims[path];
  let v: unknown = claims;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * Where the web app goes after a login: a path of ours (one leading slash, no scheme, no backslash, no control
 * characters), else the files list. An open redirect would hand the one-time code's page to another site.
 */
export function safeRedirect(v: unknown): string {
  if (typeof v !== 'string' || v.length > 2048) return '/files/';
  if (!v.startsWith('/') || v.startsWith('//') || /[\\\x00-\x1f\x7f]/.test(v)) return '/files/';
  return v;
}
