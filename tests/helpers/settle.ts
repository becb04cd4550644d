import { readFileSync, readdirSync } from 'node:fs';

/**
 * Polls `read` until its value deep-equals `expected`, then returns it; after `ms` (10 s by default) reads once more
 * and returns whatever that gives, so the caller's `expect(...).toEqual(expected)` fails with the real difference.
 *
 * Why: the server finishes work after the moment a test can see (a toast closes when an undo STARTS, a job panel row
 * appears before the job ends, a move links the new name before it unlinks the old one, a folder move makes the
 * target folder before it renames into it). A read that throws mid-operation (a file parked under its temporary
 * name reads as ENOENT, a row not yet written) counts as "not yet" until the deadline, where the error surfaces.
 */
export async function settled<T>(read: () => T | Promise<T>, expected: T, ms = 10_000): Promise<T> {
  const want = Bun.deepEquals.bind(null, expected);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const v = await read();
      if (want(v)) return v;
    } catch {
      // still in transit: read again
    }
    await Bun.sleep(50);
  }
  return read();
}

/** A file's text, or null while it is missing (mid-rename or not written yet): a read to poll with `settled`. */
export function textOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** A folder's sorted names, or null while it is missing: a read to poll with `settled`. */
export function namesOrNull(dir: string): string[] | null {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
