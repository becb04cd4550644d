import { AppError, exists } from '../../core/errors';
import type { SharesStore } from '../../db/shares.store';

/** URL-safe random text of `bytes` random bytes (base64url). */
export const randomText = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');

/**
 * A share's hash: 12 URL-safe characters (72 random bits) that never start with "-", so that `filedeck shares
 * update <hash>` and other verbs do not take it for an option (one in 64 did).
 */
export function newHash(): string {
  for (;;) {
    const h = randomText(9);
    if (!h.startsWith('-')) return h;
  }
}

/** A hash no link has, and that no slug equals when case-folded (a slug and a hash never name two links). */
export async function freshHash(store: SharesStore): Promise<string> {
  for (;;) {
    const h = newHash();
    if (!(await store.byHash(h)) && !(await store.bySlug(h.toLowerCase()))) return h;
  }
}

/** A slug taken by a concurrent change meets the unique index: a 409, not a 500. */
export async function slugSafe(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (e) {
    if (e instanceof AppError && e.code !== 'INTERNAL') throw e;
    if (/unique|duplicate/i.test(String((e as Error)?.message) + String((e as { cause?: Error })?.cause?.message))) throw exists('that slug is taken');
    throw e;
  }
}
