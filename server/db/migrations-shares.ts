import type { Migration } from './migration';

/**
 * Shares v2 (issue 37, decision 0051): link settings and counters (23), the access log (24), in-app notifications
 * (25). Appended to MIGRATIONS after the WebDAV ones; append only.
 */
export const SHARE_MIGRATIONS: Migration[] = [];
