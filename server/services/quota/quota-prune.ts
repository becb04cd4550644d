import type { TrashRow } from '../../db/trash.store';
import type { VersionRow } from '../../db/versions.store';

/** What pruning for a quota reads and removes (the trash's and the versions' own removals, nothing of its own). */
export interface PruneDeps {
  /** The setting `quotaPrunesTrash`: read at each refusal, so a change applies at once. */
  enabled: () => boolean;
  trashOf: (ownerId: number) => Promise<TrashRow[]>;
  /** Versions a trash item took along (their bytes go with it). */
  versionsOfTrash: (trashId: string) => Promise<VersionRow[]>;
  /** Deletes a trash item for good, with the versions it took along (TrashPurge.removeRow). */
  removeTrash: (row: TrashRow) => Promise<boolean>;
  /** Every settled version, oldest first. */
  versions: () => Promise<VersionRow[]>;
  /** Deletes a version for good (VersionsService.drop). */
  dropVersion: (row: VersionRow) => Promise<boolean>;
}

type Item = { at: number; bytes: number; remove: () => Promise<boolean> };

/**
 * Makes room in a full quota when the admin chose it (settings `quotaPrunesTrash`): deletes for good the user's
 * oldest trash items and the oldest versions of files under their scope (`prefix`, root-relative; '' = the root),
 * oldest first across both, until `bytes` are freed or nothing is left. Returns the bytes freed (0 when off).
 */
export function quotaPruner(d: PruneDeps) {
  return async (userId: number, prefix: string, bytes: number): Promise<number> => {
    if (!d.enabled() || bytes <= 0) return 0;
    const items: Item[] = [];
    for (const r of await d.trashOf(userId)) {
      const taken = (await d.versionsOfTrash(r.id)).reduce((n, v) => n + v.size, 0);
      items.push({ at: r.deletedAt, bytes: r.size + taken, remove: () => d.removeTrash(r) });
    }
    const under = (p: string) => prefix === '' || p === prefix || p.startsWith(`${prefix}/`);
    for (const v of await d.versions()) if (v.trashId === null && under(v.path)) items.push({ at: v.replacedAt, bytes: v.size, remove: () => d.dropVersion(v) });
    items.sort((a, b) => a.at - b.at);
    let freed = 0;
    for (const it of items) {
      if (freed >= bytes) break;
      if (await it.remove().catch(() => false)) freed += it.bytes;
    }
    return freed;
  };
}
