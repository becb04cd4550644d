import type { Rule, StoredUser } from '../../../contract/user';
import { AppError } from '../../../core/errors';
import type { SharesStore } from '../../../db/shares.store';
import type { UsersStore } from '../../../db/users.store';
import { toVirtualPath } from '../../../fs/virtual-path';
import { actorFor } from '../../actor';
import type { UsersService } from '../../users/users.service';
import { pinTarget } from '../../shares/shares.service';
import { settingsOf } from '../../shares/share-settings';
import type { FilebrowserDump } from './fb-dump';
import { mapUser } from './fb-user-map';
import { canonical, type ShareReach, type SharePlan, type UserPlan } from './import-plan';

export interface PlannerDeps {
  users: UsersService;
  userStore: UsersStore;
  shareStore: SharesStore;
  root: string;
  followExternalSymlinks: boolean;
}

/** The fields an import sets; a user here whose values equal these is "unchanged" (a second run). */
const IMPORTED = ['password', 'scope', 'locale', 'lockPassword', 'viewMode', 'singleClick', 'redirectAfterCopyMove', 'perm', 'commands', 'sorting', 'rules', 'hideDotfiles', 'dateFormat', 'aceEditorTheme'] as const;
const sameUser = (a: Record<string, unknown>, b: Record<string, unknown>) => IMPORTED.every((k) => canonical(a[k]) === canonical(b[k]));
const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;
/** Link hashes travel in URL paths: base64url only (filebrowser's are 8 characters of it). */
const HASH = /^[A-Za-z0-9_-]{1,64}$/;

/** Users: mapped, validated by UsersService.prepare (the creation path), then compared with who is here. */
export async function planUsers(d: PlannerDeps, dump: FilebrowserDump, merge: boolean): Promise<UserPlan[]> {
  const here = new Map((await d.userStore.all()).map((u) => [u.username.toLowerCase(), u]));
  const seen = new Set<string>();
  const out: UserPlan[] = [];
  for (const { value: u } of dump.users) {
    const username = typeof u.username === 'string' ? u.username : '';
    const plan: UserPlan = { fbId: Number(u.id), username, action: 'skip', notes: [] };
    out.push(plan);
    const mapped = mapUser(u);
    if (!mapped.ok) {
      plan.reason = mapped.why;
      continue;
    }
    plan.notes = mapped.notes;
    try {
      plan.prepared = await d.users.prepare(mapped.data, { passwordIsHash: true });
    } catch (e) {
      plan.reason = e instanceof AppError ? e.detail ?? e.code : String(e);
      continue;
    }
    const key = plan.prepared.user.username.toLowerCase();
    if (seen.has(key)) {
      plan.reason = 'another user of the file has the same name (names are unique regardless of case here)';
      continue;
    }
    seen.add(key);
    const existing = here.get(key);
    plan.existing = existing;
    if (!existing) plan.action = 'create';
    else if (sameUser(existing as unknown as Record<string, unknown>, plan.prepared.user as unknown as Record<string, unknown>)) plan.action = 'unchanged';
    else if (merge) plan.action = 'merge';
    else {
      plan.action = 'conflict';
      plan.reason = `a user "${existing.username}" (id ${existing.id}) exists here with other values: left alone (--merge replaces them)`;
    }
  }
  return out;
}

/** The record a link's owner will have after the import, to find the shared item through their scope. */
function ownerRecord(u: UserPlan): StoredUser | null {
  if (u.action === 'unchanged') return u.existing!;
  if (u.action === 'create') return { ...u.prepared!.user, id: 0, updatedAt: 0 };
  if (u.action === 'merge') return { ...u.existing!, ...u.prepared!.user, username: u.existing!.username };
  return null;
}

/** Finds the shared item as its owner would (scope, rules, symlinks) and pins the link to it: SharesService's pinTarget. */
async function pin(d: PlannerDeps, owner: StoredUser, path: string, rules: readonly Rule[]): Promise<{ reach: ShareReach; target: string; targetId: string }> {
  try {
    const actor = actorFor(owner, { root: d.root, globalRules: rules, followExternalSymlinks: d.followExternalSymlinks });
    const { target, targetId } = await pinTarget(actor, path);
    return { reach: 'ok', target, targetId };
  } catch (e) {
    return { reach: e instanceof AppError && e.code === 'FORBIDDEN' ? 'unreachable' : 'missing', target: '', targetId: '' };
  }
}

/** Links: expired, orphaned and unusable ones skipped with the reason; the rest pinned, or reported missing. */
export async function planShares(d: PlannerDeps, dump: FilebrowserDump, users: UserPlan[], rules: readonly Rule[], now: number): Promise<SharePlan[]> {
  const byId = new Map(users.map((u) => [u.fbId, u]));
  const all = await d.shareStore.all();
  const here = new Map(all.map((s) => [s.hash, s]));
  // Slugs are unique among slugs and hashes, case-folded (decision 0051): a hash that is a link's slug here would
  // take that link's URL.
  const slugs = new Map(all.filter((s) => settingsOf(s).slug).map((s) => [settingsOf(s).slug, s.hash] as const));
  const out: SharePlan[] = [];
  for (const { key, value: s } of dump.shares) {
    const hash = typeof s.hash === 'string' && s.hash ? s.hash : key;
    const owner = byId.get(Number(s.userID));
    const plan: SharePlan = { hash, owner: owner?.username ?? '', ownerFbId: Number(s.userID), fbPath: String(s.path ?? ''), action: 'skip' };
    out.push(plan);
    const expire = Number(s.expire ?? 0);
    if (!HASH.test(hash)) plan.reason = 'its hash has characters a link cannot carry';
    else if (expire !== 0 && expire <= now) plan.reason = `expired ${new Date(expire * 1000).toISOString()}`;
    else if (!owner) plan.reason = `orphaned: its owner (filebrowser user ${s.userID}) was deleted`;
    else if (owner.action === 'skip') plan.reason = `its owner "${owner.username}" is not imported`;
    else if (s.password_hash && !BCRYPT.test(s.password_hash)) plan.reason = 'its password hash is not bcrypt';
    if (plan.reason) continue;
    let path: string;
    try {
      path = toVirtualPath(plan.fbPath).path;
    } catch (e) {
      plan.reason = `path "${plan.fbPath}": ${(e as AppError).detail ?? 'not usable'}`;
      continue;
    }
    const passwordHash = s.password_hash ?? '';
    const token = passwordHash ? s.token ?? '' : '';
    const existing = here.get(hash);
    const slugOf = slugs.get(hash.toLowerCase());
    if (slugOf !== undefined && slugOf !== hash) {
      plan.action = 'conflict';
      plan.reason = `the link ${slugOf} here has the slug "${hash.toLowerCase()}": left alone`;
      continue;
    }
    if (existing) {
      const same = existing.userId === owner!.existing?.id && existing.path === path && existing.expire === expire && existing.passwordHash === passwordHash && existing.token === token;
      plan.action = same ? 'unchanged' : 'conflict';
      if (!same) plan.reason = 'a different link here has this hash: left alone';
      continue;
    }
    if (owner!.action === 'conflict') {
      plan.reason = `its owner "${owner!.username}" exists here and was not merged`;
      continue;
    }
    const found = await pin(d, ownerRecord(owner!)!, path, rules);
    plan.action = 'create';
    plan.reach = found.reach;
    plan.row = { hash, path, expire, passwordHash, token, target: found.target, targetId: found.targetId };
  }
  return out;
}
