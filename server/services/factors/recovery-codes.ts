import { createHash, randomInt } from 'node:crypto';

/** Ten codes, each used once. */
export const RECOVERY_CODE_COUNT = 10;
/** No 0/O, 1/I/L: codes are read off paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A new code: 16 characters from 31 (79 bits) in groups of four. That much randomness lets the stored form be a
 * plain SHA-256 (like API tokens, decision 0044): no one can search 2^79 codes from a leaked table, so a slow hash
 * would only cost each login time.
 */
export function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s.match(/.{4}/g)!.join('-');
}

/** The code as it is compared: lower case, no spaces or dashes. Null when it cannot be one of ours. */
export function normaliseRecoveryCode(code: unknown): string | null {
  if (typeof code !== 'string' || code.length > 64) return null;
  const c = code.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{16}$/.test(c) ? c : null;
}

export function hashRecoveryCode(normalised: string): string {
  return createHash('sha256').update(normalised).digest('base64url');
}
