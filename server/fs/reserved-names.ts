import { AppError } from '../core/errors';

/**
 * The server's own names inside the files root. Everything the server makes there for itself starts with this
 * prefix: temps (`.filedeck-<id>.part`), the trash (`.filedeck-trash`), and whatever is added later. Listings,
 * search and the sweep treat such names as the server's, so no user may ever give one to anything.
 */
export const OWN_PREFIX = '.filedeck-';

/** A name the server made for itself (exact prefix): never indexed, never searched. */
export const isOwnName = (name: string): boolean => name.startsWith(OWN_PREFIX);

/**
 * A name nobody may write, rename, copy, move, upload, extract, restore or make a folder under: the server's own
 * prefix in any letter case (a case-insensitive volume would otherwise let `.FILEDECK-TRASH` reach the trash).
 */
export function isReservedName(name: string): boolean {
  return name.length >= OWN_PREFIX.length && name.slice(0, OWN_PREFIX.length).toLowerCase() === OWN_PREFIX;
}

/**
 * THE check of every destination name (the one home of the invariant): each component of a virtual path that is
 * about to be written is refused (400) when it is reserved. ScopedFs calls it wherever it resolves a destination
 * (`ScopePaths.destination`), so HTTP, CLI, tus, jobs, extraction and restores all pass here.
 */
export function refuseReserved(vpath: string): void {
  for (const part of vpath.split('/')) {
    if (part && isReservedName(part))
      throw new AppError('INVALID', `"${part.slice(0, 80)}" is a reserved name: names starting with ${OWN_PREFIX} belong to the server's own files`);
  }
}
