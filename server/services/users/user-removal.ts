/** What else a user owns, as the services that keep each see it (wired by the composition root). */
export interface Belongings {
  /** Ends the user's queued and running jobs (JobsService.endOwner). */
  endJobs(userId: number, reason: string): Promise<void>;
  /** Abandons their uploads in progress, rows and temp files (TusService.dropUser). */
  dropUploads(userId: number): Promise<number>;
  /** Deletes their trash for good (TrashPurge.removeOwner). */
  removeTrash(userId: number): Promise<number>;
  /** Gives their trash to another user (TrashPurge.handOver). */
  handTrash(from: number, to: number): Promise<number>;
}

/** What happens to a deleted user's trash: deleted with them (the default), or handed to an admin, who then restores or empties it. */
export type TrashFate = { handTo: number } | 'remove';

/**
 * Everything a user owns goes with the user, before their row does (the rows of sessions, shares, uploads, trash
 * and jobs would otherwise vanish by cascade and leave their files and running work behind): their jobs end, their
 * uploads in progress are abandoned with their temp files, and their trash is deleted for good or handed to an
 * admin. Sessions and share links go with the row. What a crash leaves half-done is caught later: unclaimed trash
 * slots by the trash purge, temps by the temp sweep, jobs by their own check of the account.
 */
export async function removeBelongings(b: Belongings, userId: number, trash: TrashFate): Promise<{ uploads: number; trash: number; trashHandedTo?: number }> {
  await b.endJobs(userId, 'stopped: the user was deleted');
  const uploads = await b.dropUploads(userId);
  if (trash !== 'remove') return { uploads, trash: await b.handTrash(userId, trash.handTo), trashHandedTo: trash.handTo };
  return { uploads, trash: await b.removeTrash(userId) };
}
