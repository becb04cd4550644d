import { invalid } from '../../core/errors';
import { passwordWork } from '../work/work-limits';

// zxcvbn-ts's common-password dictionary (about 49,000 entries from breach corpora), checked case-insensitively.
// Loaded at the first password set: the package decompresses all its dictionaries as it loads (~0.1 s and several
// MB at every start otherwise; issue 39).
let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  if (!common) {
    const { dictionary } = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    common = new Set((dictionary as Record<string, string[]>)['passwords-common']!.map((p) => p.toLowerCase()));
  }
  return common;
}

export const MAX_PASSWORD_BYTES = 256;

/** Throws a 400 when a new password is too short (in bytes, as the reference), too long, or too common. */
export function checkPassword(password: unknown, minLength: number): string {
  if (typeof password !== 'string' || password === '') throw invalid('password must not be empty');
  const bytes = Buffer.byteLength(password);
  if (bytes < minLength) throw invalid(`password is too short, minimum length is ${minLength}`);
  if (bytes > MAX_PASSWORD_BYTES) throw invalid(`password is too long, maximum length is ${MAX_PASSWORD_BYTES} bytes`);
  if (commonPasswords().has(password.toLowerCase())) throw invalid('password is too easy');
  return password;
}

// bcrypt cost 10 as the reference; `bun test` runs with NODE_ENV=test, where the minimum keeps suites fast.
// The compiled binary is built with NODE_ENV=production, so it always uses 10.
const COST = process.env.NODE_ENV === 'test' ? 4 : 10;

/**
 * bcrypt runs on worker threads with a small fixed concurrency (services/work/work-limits.ts: passwordWork), not
 * through Bun.password's async calls: those use the runtime's shared thread pool, where 150 concurrent logins
 * were measured to queue every file-system call of every other request for up to 10 s.
 */
export function hashPassword(password: string, cost = COST): Promise<string> {
  return passwordWork().run<string>('bcrypt', { kind: 'bcrypt-hash', password, cost });
}

function bcryptVerify(password: string, hash: string): Promise<boolean> {
  return passwordWork().run<boolean>('bcrypt', { kind: 'bcrypt-verify', password, hash });
}

// A fixed hash to compare against when the user does not exist, so unknown and known users take as long.
let dummyHash: Promise<string> | null = null;

/**
 * Verifies a password (one longer than MAX_PASSWORD_BYTES is wrong at once: nothing can have been set that long);
 * with a null hash it still spends the time of one bcrypt check and returns false. A malformed
 * stored hash is a failed check (the worker answers false); a full queue (429) or the time limit (503) propagates:
 * a busy server is not a wrong password.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  // Longer than any password that can be set (checkPassword, share passwords): wrong, without hashing it.
  if (password.length > MAX_PASSWORD_BYTES || Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return false;
  if (!hash) {
    dummyHash ??= hashPassword('filedeck-timing-equaliser').catch((e) => {
      dummyHash = null;
      throw e;
    });
    await bcryptVerify(password, await dummyHash);
    return false;
  }
  return bcryptVerify(password, hash);
}

/** A random password for generated accounts: 18 bytes, base64url (24 characters). */
export function randomPassword(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url');
}
