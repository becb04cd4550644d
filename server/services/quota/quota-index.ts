import type { NameIndex } from '../index/name-index.service';

/**
 * A scope's usage from the name index for quotas (QuotaDeps.indexUsage): an index lookup and a range count instead
 * of a walk of the disk. Only when the index is ready and this is the only instance on the database (SQLite):
 * other instances' writes reach this index late, and a measure missing a write already settled would count too
 * little. Waits until what this process reported is in the index; null sends the quota to the disk.
 */
export function indexedUsage(index: Pick<NameIndex, 'ready' | 'settled' | 'usageUnder'>, engine: 'sqlite' | 'postgres') {
  return async (real: string): Promise<{ bytes: number; files: number } | null> => {
    if (engine !== 'sqlite' || !index.ready()) return null;
    await index.settled();
    return index.usageUnder(real);
  };
}
