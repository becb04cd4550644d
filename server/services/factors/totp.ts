import type { TOTP } from 'otpauth';

/** otpauth, loaded at the first second-factor code (start-up of every server; issue 39). */
const otp = (): typeof import('otpauth') => require('otpauth');

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s. */
const PERIOD = 30;
const DIGITS = 6;
/** One step either side: a phone clock a little off still works. */
const WINDOW = 1;

function totpOf(secret: string, label = 'user', issuer = 'Filedeck'): TOTP {
  const { Secret, TOTP } = otp();
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** A new random secret (160 bits, the RFC's recommendation for SHA-1), base32. */
export function newTotpSecret(): string {
  return new (otp().Secret)({ size: 20 }).base32;
}

/** The otpauth:// URI for the QR code. */
export function totpUri(secret: string, username: string, issuer: string): string {
  return totpOf(secret, username, issuer || 'Filedeck').toString();
}

/** Six digits, nothing else (spaces a user typed are taken out first). */
export function cleanCode(code: unknown): string | null {
  if (typeof code !== 'string' || code.length > 64) return null;
  const c = code.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(c) ? c : null;
}

/**
 * The time step a code belongs to (within ±WINDOW of now), or null when it is wrong. The caller accepts a step
 * only when it is newer than the last accepted one (no reuse within or across the window).
 */
export function totpStep(secret: string, code: string, now: number): number | null {
  const t = totpOf(secret);
  const delta = t.validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  return t.counter({ timestamp: now }) + delta;
}
