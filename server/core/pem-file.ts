import { readFileSync, statSync } from 'node:fs';
import { AppError } from './errors';

/** Largest CA bundle read (the system bundle is about 200 KiB). */
const MAX_PEM_BYTES = 4 * 1024 * 1024;

/** A PEM file an admin named in the settings (a CA to trust), read whole; a clear 503 when missing or not PEM. */
export function readPemFile(path: string): string {
  try {
    if (statSync(path).size > MAX_PEM_BYTES) throw new Error('too large');
    const pem = readFileSync(path, 'utf8');
    if (!pem.includes('-----BEGIN')) throw new Error('not PEM');
    return pem;
  } catch (e) {
    throw new AppError('UNAVAILABLE', `the directory's CA file cannot be read (${(e as Error).message.split(':')[0]})`);
  }
}
