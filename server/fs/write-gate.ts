import { sep } from 'node:path';

/** `real` is `root` or beneath it (as scope-paths.ts `inside`; not imported: the trash's files call leftAt). */
const inside = (real: string, root: string) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * What a write holds against the quotas of the places it lands in, from before its first byte until it is placed
 * (settle) or given up (release). `grow` asks for more while a stream without a declared size is written; it throws
 * (507) when that would go past a limit, and the writer then discards its temp file.
 */
export interface WriteHold {
  grow(bytes: number, files?: number): Promise<void>;
  /** The write landed: its bytes and files now count as stored. */
  settle(): Promise<void>;
  /** The write was given up: nothing counts. */
  release(): Promise<void>;
}

/**
 * The quota decision as the file layer sees it (QuotaService implements it): `reserve` before bytes or entries land
 * at the real location `dest`, `from` when they come from elsewhere in the files root (a move, which adds nothing
 * under a quota that already holds its source).
 */
export interface WriteGate {
  reserve(dest: string, bytes: number, files: number, opts?: { id?: string; ttl?: number }): Promise<WriteHold>;
  /** Drops reservation `id` (a resumable upload cancelled, swept or abandoned). */
  release(id: string): Promise<void>;
  /**
   * A move of the real entry `from` to `dest`: counts only against quotas that do not already hold `from`, nor
   * that of the user `counted` (whose trash it comes from: already counted there).
   */
  reserveMove(from: string, dest: string, opts?: { counted?: number }): Promise<WriteHold>;
  /**
   * Something left the real location `real` (a delete, a move away, an overwrite whose old content went to the
   * versions or the trash): the quotas over it are measured again before they next refuse a write or show usage.
   */
  touched(real: string): Promise<void>;
}

/** A hold that holds nothing (no gate, or no quota over the destination). */
export const NO_HOLD: WriteHold = { grow: async () => {}, settle: async () => {}, release: async () => {} };

/**
 * The gates of the files roots this process serves, by real root path. Installed once by the composition root for
 * its root, so every ScopedFs beneath it (a request's actor, a share, a job, the trash) meets the gate without any
 * caller having to remember to pass it: no write path can get around it.
 */
const gates = new Map<string, WriteGate>();

/** Installs the gate of a files root (real path); returns its removal (Services.close). */
export function installWriteGate(root: string, gate: WriteGate): () => void {
  gates.set(root, gate);
  return () => {
    if (gates.get(root) === gate) gates.delete(root);
  };
}

/** The gate over a real location (the one of the deepest root holding it), or null. */
export function gateOver(real: string): WriteGate | null {
  let best: [string, WriteGate] | null = null;
  for (const [root, g] of gates) if (inside(real, root) && (!best || root.length > best[0].length)) best = [root, g];
  return best?.[1] ?? null;
}

/** Reserves through the gate over `dest` (NO_HOLD without one). */
export function reserveAt(dest: string, bytes: number, files: number, opts?: { id?: string; ttl?: number }): Promise<WriteHold> {
  return gateOver(dest)?.reserve(dest, bytes, files, opts) ?? Promise.resolve(NO_HOLD);
}

/** reserveMove through the gate over `dest`. */
export function reserveMoveAt(from: string, dest: string, opts?: { counted?: number }): Promise<WriteHold> {
  return gateOver(dest)?.reserveMove(from, dest, opts) ?? Promise.resolve(NO_HOLD);
}

/** Tells the gate over `real` that something left it (WriteGate.touched); never fails the caller. */
export async function leftAt(real: string): Promise<void> {
  await gateOver(real)?.touched(real).catch(() => {});
}

/** Drops the reservation of a temp file (its resumable upload ended without landing). */
export async function releaseTemp(tempPath: string): Promise<void> {
  await gateOver(tempPath)?.release(tempHoldId(tempPath));
}

/** The reservation id of a temp file: a resumable upload's reservation and the commit of its temp share it. */
export const tempHoldId = (tempPath: string) => `temp:${tempPath}`;

/**
 * Runs `fn` (which places what `hold` reserved) and settles the hold when it succeeds, releases it when it throws.
 */
export async function holding<T>(hold: WriteHold, fn: () => Promise<T>): Promise<T> {
  let r: T;
  try {
    r = await fn();
  } catch (e) {
    await hold.release();
    throw e;
  }
  await hold.settle();
  return r;
}
