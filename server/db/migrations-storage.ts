import type { Migration } from './migration';

/**
 * Versions and quotas (issue 35): kept versions of overwritten files (19), quotas, usage and reservations (20).
 * Appended to MIGRATIONS after the accounts ones; append only.
 */
export const STORAGE_MIGRATIONS: Migration[] = [];
