import { toYaml } from '../../server/core/yaml';
import { countPlan, type ImportPlan, type ItemAction } from '../../server/services/import/filebrowser/import-plan';
import { table } from '../table';

const VERB: Record<ItemAction, string> = { create: 'create', merge: 'merge', unchanged: 'unchanged', conflict: 'CONFLICT', skip: 'SKIP' };
const REACH = { ok: 'found', missing: 'missing now: kept, served once the item is there', unreachable: "refused by the owner's rules or scope now" } as const;
const sum = (c: Record<ItemAction, number>, dry: boolean) =>
  `${c.create} ${dry ? 'to create' : 'created'}, ${c.merge} ${dry ? 'to merge' : 'merged'}, ${c.unchanged} unchanged, ${c.conflict} conflicts, ${c.skip} skipped`;

/**
 * The import's report: every user and link with what happens to it (conflicts and skips with their reason), the
 * settings that change, what does not carry over, and filebrowser's server values as filedeck.yaml keys.
 */
export function importReport(plan: ImportPlan, dryRun: boolean, changed: boolean): string {
  const c = countPlan(plan);
  const out: string[] = [];
  out.push(dryRun ? `Dry run of the import of ${plan.source}: nothing was written.` : changed ? `Imported ${plan.source}.` : `Nothing to import from ${plan.source}: everything in it is already here, unchanged.`);
  out.push('', `Users: ${sum(c.users, dryRun)}`);
  if (plan.users.length)
    out.push(table(['', 'Username', 'Scope', 'Admin', 'Why'], plan.users.map((u) => [VERB[u.action], u.username, u.prepared?.user.scope ?? '', u.prepared?.user.perm.admin ?? '', u.reason ?? ''])));
  for (const u of plan.users) for (const n of u.notes) out.push(`  ${u.username}: ${n}`);
  out.push('', `Share links: ${sum(c.shares, dryRun)}`);
  // One line per link, not a table: paths run to kilobytes, and padding every row to the longest would multiply them.
  for (const s of plan.shares) out.push(`${VERB[s.action].padEnd(9)}  ${s.hash}  ${s.owner || '-'}  ${s.fbPath}  (${s.reason ?? REACH[s.reach ?? 'ok']})`);
  if (plan.settings.fresh) out.push('', `Settings: none here yet: filebrowser's ${dryRun ? 'would be' : 'were'} written over the defaults`);
  else out.push('', plan.settings.changed.length ? `Settings ${dryRun ? 'to change' : 'changed'}: ${plan.settings.changed.join(', ')}` : 'Settings: unchanged');
  if (plan.notes.length) out.push('', 'Not carried over, or changed on the way:', ...plan.notes.map((n) => `  - ${n}`));
  if (Object.keys(plan.serverConfig).length)
    out.push('', 'filebrowser\'s server settings as filedeck.yaml keys (not applied: put them in your config file, or use --write-config):', toYaml(plan.serverConfig).trimEnd().replace(/^/gm, '  '));
  out.push('', 'Sessions do not carry over: everyone signs in again, with the same password.');
  return out.join('\n');
}

/** The plan as --json prints it: no password hashes, no tokens. */
export function importJson(plan: ImportPlan, dryRun: boolean, changed: boolean): unknown {
  return {
    source: plan.source,
    dryRun,
    changed,
    counts: countPlan(plan),
    users: plan.users.map((u) => ({ username: u.username, action: u.action, ...(u.reason ? { reason: u.reason } : {}), notes: u.notes, scope: u.prepared?.user.scope })),
    shares: plan.shares.map((s) => ({ hash: s.hash, owner: s.owner, path: s.fbPath, action: s.action, ...(s.reason ? { reason: s.reason } : {}), ...(s.reach ? { reach: s.reach } : {}), password: !!s.row?.passwordHash })),
    settings: plan.settings.changed,
    notes: plan.notes,
    serverConfig: plan.serverConfig,
  };
}
