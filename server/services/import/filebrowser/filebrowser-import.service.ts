import type { Settings } from '../../../contract/settings';
import { invalid } from '../../../core/errors';
import { SettingsStore } from '../../../db/settings.store';
import { SharesStore } from '../../../db/shares.store';
import type { UsersStore } from '../../../db/users.store';
import { systemActor, type Actor } from '../../actor';
import type { AuditService } from '../../audit/audit.service';
import { CLI_SETTINGS_FIELDS, type SettingsService } from '../../settings/settings.service';
import { defaultSettings } from '../../settings/settings-defaults';
import { mergeSettings } from '../../settings/settings-validation';
import type { UsersService } from '../../users/users.service';
import type { FilebrowserDump } from './fb-dump';
import { mapServer, mapSettings } from './fb-settings-map';
import { canonical, countPlan, planChanges, type ImportCounts, type ImportPlan } from './import-plan';
import { planShares, planUsers } from './import-planner';

export interface FilebrowserImportDeps {
  users: UsersService;
  userStore: UsersStore;
  shareStore: SharesStore;
  settings: SettingsService;
  settingsStore: SettingsStore;
  root: string;
  followExternalSymlinks: boolean;
  audit?: AuditService;
}

export interface ImportOptions {
  /** Replace the records of usernames that exist here (otherwise they are conflicts, left alone). */
  merge?: boolean;
  /** Unix seconds that decide which links have expired (tests); now by default. */
  now?: number;
  /** The file(s) read, for messages and the audit log. */
  source: string;
  /** Server values read from filebrowser's config file and FB_* variables, over the database's (fb-server-config.ts). */
  serverOverrides?: Record<string, unknown>;
  /** The source holds no settings (a users export alone): leave ours as they are. */
  noSettings?: boolean;
}

/**
 * `filedeck import filebrowser`: turns what a filebrowser database holds (a FilebrowserDump, read by read-db.ts or
 * built from its JSON exports) into a plan (`plan`: reads only), then applies that plan as one transaction
 * (`apply`). Users go through UsersService's creation path (prepare, folders, insertPrepared); links keep their
 * hashes, passwords and tokens and are pinned to their items as SharesService requires; settings are validated by
 * mergeSettings like any other change. The old database is never written: it is only read, before all this.
 */
export class FilebrowserImportService {
  constructor(private readonly d: FilebrowserImportDeps) {}

  async plan(dump: FilebrowserDump, opts: ImportOptions): Promise<ImportPlan> {
    if (dump.config?.version !== undefined && dump.config.version !== 2) throw invalid(`config/version is ${dump.config.version}: not a filebrowser 2.x database`);
    const mapped = opts.noSettings ? { patch: {}, notes: [] } : mapSettings(dump.config);
    const fresh = await this.d.settings.isFresh();
    const base: Settings = fresh ? defaultSettings() : this.d.settings.get();
    const next = mergeSettings(base, mapped.patch, CLI_SETTINGS_FIELDS);
    const changed = fresh ? Object.keys(next) : (Object.keys(next) as (keyof Settings)[]).filter((k) => canonical(base[k]) !== canonical(next[k]));
    const deps = { users: this.d.users, userStore: this.d.userStore, shareStore: this.d.shareStore, root: this.d.root, followExternalSymlinks: this.d.followExternalSymlinks };
    const users = await planUsers(deps, dump, !!opts.merge);
    const shares = await planShares(deps, dump, users, next.rules, opts.now ?? Math.floor(Date.now() / 1000));
    const server = opts.noSettings && !opts.serverOverrides ? { config: {}, notes: [] } : mapServer({ ...dump.config.server, ...(opts.serverOverrides ?? {}) });
    const notes = [...mapped.notes, ...server.notes];
    if (next.authMethod === 'noauth' && !opts.noSettings) {
      // Without sign-in every visitor is user 1, here as in filebrowser; ids are not kept, so say who that will be.
      const one = (await this.d.userStore.byId(1))?.username ?? users.find((u) => u.action === 'create')?.username;
      const fbOne = dump.users.find((u) => Number(u.value.id) === 1)?.value.username;
      if (one !== fbOne) notes.push(`noauth: every visitor is user 1, which is "${one ?? 'nobody yet'}" here and was "${fbOne ?? 'nobody'}" in filebrowser`);
    }
    if (server.config.root && server.config.root !== this.d.root && String(server.config.root).startsWith('/'))
      notes.push(`filebrowser served ${server.config.root}; this import pins links under ${this.d.root}: start Filedeck with the same root (--root)`);
    if (!dump.shares.length && opts.source.endsWith('.json')) notes.push('JSON exports hold no share links: only a database file brings them');
    return { source: opts.source, merge: !!opts.merge, users, shares, settings: { next, changed, fresh }, serverConfig: server.config, notes };
  }

  /**
   * Applies a plan: scope folders first (UsersService.withScopeFolders: removed again if the rest fails), then
   * settings, users and links in ONE transaction on either engine, so a failure leaves nothing of it. A plan that
   * changes nothing writes nothing (a second run). Recorded in the audit log as `import.filebrowser`.
   */
  async apply(plan: ImportPlan, by: Actor = systemActor): Promise<ImportCounts & { changed: boolean }> {
    const counts = countPlan(plan);
    if (!planChanges(plan)) return { ...counts, changed: false };
    const writes = plan.users.filter((u) => u.action === 'create' || u.action === 'merge');
    await this.d.users.withScopeFolders(writes.map((u) => u.prepared!.user.scope), () =>
      this.d.userStore.transaction(async (users, tx) => {
        if (plan.settings.changed.length) await new SettingsStore(tx).putMany(plan.settings.next as unknown as Record<string, unknown>);
        const ids = new Map<number, number>();
        for (const u of plan.users) {
          if (u.action === 'create') ids.set(u.fbId, await this.d.users.insertPrepared(users, u.prepared!));
          else if (u.action === 'merge') {
            await this.d.users.replacePrepared(users, tx, u.existing!.id, u.prepared!);
            ids.set(u.fbId, u.existing!.id);
          } else if (u.action === 'unchanged') ids.set(u.fbId, u.existing!.id);
        }
        if ((await users.count()) > 0 && (await users.countAdmins()) === 0) throw invalid('the import would leave no admin');
        const shares = new SharesStore(tx);
        for (const s of plan.shares) if (s.action === 'create') await shares.insert({ ...s.row!, userId: ids.get(s.ownerFbId)! });
      }),
    );
    await this.d.settings.load();
    if (plan.settings.fresh) await this.d.settings.ensureSigningKey();
    const names = (action: string) => plan.users.filter((u) => u.action === action).map((u) => u.username);
    await this.d.audit?.record(by, 'import.filebrowser', plan.source, {
      users: counts.users, shares: counts.shares, settings: plan.settings.changed,
      created: names('create').slice(0, 100), merged: names('merge').slice(0, 100),
    });
    return { ...counts, changed: true };
  }
}
