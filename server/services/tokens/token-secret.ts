import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The text of a personal API token: `fdt_<id>_<secret>`, the id 12 and the secret 32 base64url characters (9 and 24
 * random bytes: the secret has 192 bits, so a plain SHA-256 at rest is enough; no slow hash is needed).
 */
export const TOKEN_PREFIX = 'fdt_';
const SHAPE = /^fdt_([A-Za-z0-9_-]{12})_([A-Za-z0-9_-]{32})$/;

const random = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * An id of letters and digits only: it is typed as a CLI argument (`filedeck tokens rm <id>`), where a leading '-'
 * would read as an option. 12 of 62 characters (~71 bits), each drawn without bias (bytes past 247 are redrawn).
 */
function alnumId(length = 12): string {
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += ALNUM[b % 62];
    }
  }
  return out;
}

export function newTokenParts(): { id: string; secret: string; text: string } {
  // Tokens made before ids were letters and digits may hold '_' or '-' in the id: parsing stays by position.
  const id = alnumId();
  const secret = random(24);
  return { id, secret, text: `${TOKEN_PREFIX}${id}_${secret}` };
}

/** The id and secret of a token text, or null when it is not shaped like one (no lookup, no hashing). */
export function parseToken(text: string): { id: string; secret: string } | null {
  if (text.length !== 49) return null;
  const m = SHAPE.exec(text);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

export const looksLikeApiToken = (t: string | null | undefined): t is string => !!t && t.startsWith(TOKEN_PREFIX);

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

/** Compares a presented secret with a stored hash in constant time (both digests have the same length). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
