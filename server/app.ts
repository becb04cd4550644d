import { join } from 'node:path';
import type { Config, SsoSections } from './core/config';
import { applySsoConfig } from './services/sso/sso-config';
import { createLogger, type Logger } from './core/log';
import { MetricsRegistry } from './core/metrics';
import { HealthStore } from './db/health.store';
import { Background } from './services/background/background';
import { QuotaService } from './services/quota/quota.service';
import { QuotaStore } from './db/quota.store';
import { indexedUsage } from './services/quota/quota-index';
import { quotaPruner } from './services/quota/quota-prune';
import { installWriteGate } from './fs/write-gate';
import { observeBackground } from './services/health/background-metrics';
import { HealthService } from './services/health/health.service';
import { openDatabase } from './db/database';
import { SessionsStore } from './db/sessions.store';
import { SettingsStore } from './db/settings.store';
import { SharesStore } from './db/shares.store';
import { ShareAccessStore } from './db/share-access.store';
import { NotificationsStore } from './db/notifications.store';
import { ShareAccessLog } from './services/shares/share-access-log';
import { NotificationsService } from './services/shares/notifications.service';
import { ShareWebhooks } from './services/shares/share-webhooks';
import { ShareUploads } from './services/shares/share-uploads';
import { UsersStore } from './db/users.store';
import { RateLimitsStore } from './db/rate-limits.store';
import { RateLimiter } from './services/auth/rate-limiter';
import { AuditStore } from './db/audit.store';
import { AuditService } from './services/audit/audit.service';
import { AuthService } from './services/auth/auth.service';
import { FilesService } from './services/files/files.service';
import { TusService } from './services/files/tus.service';
import { noHooks, type Hooks } from './services/hooks/hooks';
import { ExecHooks } from './services/hooks/exec-hooks';
import { createRunner } from './services/runner/create-runner';
import { PreviewService } from './services/preview/preview.service';
import { detectToolSandbox } from './services/preview/tool-thumbs';
import { createWork } from './services/work/work-limits';
import { PreviewCacheStore } from './db/preview-cache.store';
import { UploadsStore } from './db/uploads.store';
import { SettingsService } from './services/settings/settings.service';
import { ensureInitialised, type FirstRun } from './services/setup/setup.service';
import { UsersService } from './services/users/users.service';
import { SharesService } from './services/shares/shares.service';
import { TrashStore } from './db/trash.store';
import { TrashService } from './services/trash/trash.service';
import { VersionsStore } from './db/versions.store';
import { VersionsService } from './services/versions/versions.service';
import { VersionUpkeep } from './services/versions/version-upkeep';
import { versionTestPause } from './services/versions/version-test-pause';
import { NameIndex } from './services/index/name-index.service';
import { IndexPeers } from './services/index/index-peers';
import { IndexNoticesStore } from './db/index-notices.store';
import { indexedHooks } from './services/index/index-hooks';
import { JobsStore } from './db/jobs.store';
import { actorFor } from './services/actor';
import type { TokenLimits } from './services/policy/token-limits';
import { ApiTokensStore } from './db/api-tokens.store';
import { TokensService } from './services/tokens/tokens.service';
import { TokenAuth } from './services/tokens/token-auth';
import { AccountSessions } from './services/tokens/account-sessions';
import { JobsService } from './services/jobs/jobs.service';
import type { Services } from './services/services';
import { IdentitiesStore } from './db/identities.store';
import { SsoFlowsStore } from './db/sso-flows.store';
import { DirectoryLogin } from './services/sso/directory-login';
import { LdapLogin } from './services/sso/ldap-login';
import { OidcService } from './services/sso/oidc.service';
import { createFactors } from './services/factors/create-factors';
import { useFolderCache } from './fs/folder-cache';
import { protectOwnFiles } from './services/files/own-files';
import { DavPropsStore } from './db/dav-props.store';
import { DavService } from './services/dav/dav.service';
import { DavPropsService } from './services/dav/dav-props.service';
import { DavLogin } from './services/dav/dav-login';
import { DavLocksStore } from './db/dav-locks.store';
import { DavLocksService } from './services/dav/dav-locks.service';
import { FilebrowserImportService } from './services/import/filebrowser/filebrowser-import.service';

export type { Services };

/**
 * Composition root: opens the database (SQLite file or PostgreSQL URL, migrating it), loads the settings and
 * wires the services. No HTTP here.
 */
export async function createServices(
  config: Readonly<Config> & { configFile?: string | null; sso?: SsoSections },
  log: Logger = createLogger(config.log, config.logFormat),
  opts: { maxConnections?: number } = {},
): Promise<Services> {
  // The bubblewrap probe (a sandboxed `true`, 30-60 ms) runs while the database opens and the settings load, instead
  // of after them: it was the largest single wait before the first answer (issue 39). Awaited where it is used.
  const toolSandbox = detectToolSandbox(config);
  toolSandbox.catch(() => {}); // a failure is met where it is awaited; not an unhandled rejection meanwhile
  const db = await openDatabase(config.database, { connectTimeoutMs: config.databaseConnectTimeout, maxConnections: opts.maxConnections });
  // Small folders remembered between listings (fs/folder-cache.ts): a setting of the process, as the cache is.
  useFolderCache(config.folderCache);
  const stores = {
    users: new UsersStore(db),
    sessions: new SessionsStore(db),
    settings: new SettingsStore(db),
    shares: new SharesStore(db),
    uploads: new UploadsStore(db),
    previews: new PreviewCacheStore(db),
  };
  const audit = new AuditService(new AuditStore(db), log, () => settings.get().auditRetentionDays);
  const settings = new SettingsService(stores.settings, audit);
  await settings.load();
  // The config file's oidc: and ldap: sections win over what is stored (services/sso/sso-config.ts).
  await applySsoConfig(settings, config.sso);
  // State files hidden from every scope, temp names provable (services/files/own-files.ts).
  await protectOwnFiles(config, stores.settings);
  const limits = new RateLimiter(new RateLimitsStore(db));
  const users = new UsersService({ users: stores.users, sessions: stores.sessions, settings, root: config.root, limits, audit });
  // Directory logins (OIDC, LDAP) end in one home (services/sso/directory-login.ts); LDAP is asked by password logins.
  const directory = new DirectoryLogin({ identities: new IdentitiesStore(db), users: stores.users, usersService: users, settings, audit });
  const auth = new AuthService({ users: stores.users, sessions: stores.sessions, settings, usersService: users, limits, tokenLifetimeMs: config.tokenExpirationTime, renewGraceMs: config.tokenRenewGrace, audit, directory: new LdapLogin({ settings, directory, audit }) });
  const oidc = new OidcService({ flows: new SsoFlowsStore(db), sessions: stores.sessions, settings, directory, auth, limits, audit });
  // Second factors and passkeys (services/factors): asked by password logins, tokens and WebDAV (hasSecondFactor).
  const factors = createFactors(db, { users: stores.users, settings, limits, audit });
  // Personal API tokens (services/tokens): their limits are applied by actorFor and the file policy.
  const apiTokens = new ApiTokensStore(db);
  const tokens = new TokensService({ store: apiTokens, users: stores.users, audit, ownerActor: (u) => actorFor(u, { root: config.root, globalRules: settings.get().rules, followExternalSymlinks: config.followExternalSymlinks }) });
  const tokenAuth = new TokenAuth({
    store: apiTokens, users: stores.users, limits, audit,
    passwordLogin: (name, password, address) => auth.loginWithPassword(name, password, address),
    twoFactorRequired: () => !!settings.get().twoFactor?.required,
    hasSecondFactor: (id) => factors.hasSecondFactor(id),
  });
  const accountSessions = new AccountSessions({ sessions: stores.sessions, users: stores.users, auth, audit });
  const runner = await createRunner(config, settings, log, audit);
  // Hooks, like the runner, exist only when exec is on and sandboxed (or the admin accepted unsafe mode).
  const hooks: Hooks = runner.enabled ? new ExecHooks(runner, settings, log) : noHooks;
  // Checksums and previews run on worker threads with global and per-user limits (services/work/work-limits.ts).
  const work = createWork({ imageProcessors: config.imageProcessors });
  // PDF and video thumbnail programs run inside bubblewrap, by the runner's rule (services/preview/tool-thumbs.ts).
  const sandbox = await toolSandbox;
  const previews = new PreviewService({ cacheDir: config.cacheDir, store: stores.previews, enableThumbnails: config.enableThumbnails, resizePreview: config.resizePreview, work: work.previews, sandbox });
  // The name index (search, folder sizes): a local SQLite file per instance; `serve` starts it (services/index).
  // With PostgreSQL, instances tell each other what they wrote (services/index/index-peers.ts).
  const index = new NameIndex({ file: join(config.indexDir, 'name-index.db'), root: config.root, log, watchLimit: config.indexWatchLimit, reconcileMs: config.indexReconcile, pollMs: config.indexPoll, peers: new IndexPeers(new IndexNoticesStore(db), log) });
  const versionRows = new VersionsStore(db);
  const trashRows = new TrashStore(db);
  // Quotas (services/quota): one gate over the files root, met by every write beneath it, whoever writes (fs/write-gate.ts).
  const quota = new QuotaService({ store: new QuotaStore(db), users: stores.users, root: config.root, log, indexUsage: indexedUsage(index, db.engine), versionsBytes: async (prefix, userId) => (await versionRows.bytesUnder(prefix)) + (await versionRows.bytesInTrashOf(userId)) });
  users.usageOf = (u) => quota.usage(u);
  const removeGate = installWriteGate(quota.realRoot, quota);
  const files = new FilesService({ hooks: indexedHooks(hooks, index), folderSizes: index, shares: stores.shares, evictPreviews: (p) => previews.evict(p), typeDetectionByHeader: config.typeDetectionByHeader, checksums: work.checksums, audit });
  // Shares v2 (decision 0051): the access log, the owner's notifications and webhooks (stopped by Background).
  const accessLog = new ShareAccessLog(new ShareAccessStore(db), () => settings.get().shares.logFullAddresses);
  const notifications = new NotificationsService(new NotificationsStore(db));
  const webhooks = new ShareWebhooks(log, () => settings.get().shares.webhookPrivateHosts);
  const shares = new SharesService({ store: stores.shares, users: stores.users, root: config.root, followExternalSymlinks: config.followExternalSymlinks, globalRules: () => settings.get().rules, limits, audit, accessLog, notifications });
  // File versions (services/versions): what an overwrite replaces is kept there by the delete sequence's keeper.
  const versions = new VersionsService({ store: new VersionsStore(db), users: stores.users, files, root: config.root, settings: () => settings.get().versions, audit, log, afterLink: versionTestPause() });
  files.followers.push(versions);
  const versionUpkeep = new VersionUpkeep(versions, log);
  const trash = new TrashService({ store: new TrashStore(db), users: stores.users, shares: stores.shares, files, root: config.root, followExternalSymlinks: config.followExternalSymlinks, trashSettings: () => settings.get().trash, globalRules: () => settings.get().rules, versions });
  // A full quota may first give up its oldest trash and versions (settings quotaPrunesTrash; services/quota).
  quota.makeRoom = quotaPruner({ enabled: () => settings.get().quotaPrunesTrash, trashOf: (id) => trashRows.list(id), versionsOfTrash: (id) => versionRows.ofTrash(id), removeTrash: (r) => trash.purge.removeRow(r), versions: () => versionRows.settled(), dropVersion: (r) => versions.drop(r) });
  // Background jobs act as their user as of now, read again before each item and about once a second (jobs/job-actor.ts).
  const actorOf = async (id: number, limits?: TokenLimits) => {
    const u = await stores.users.byId(id);
    return u && actorFor(u, { root: config.root, globalRules: settings.get().rules, followExternalSymlinks: config.followExternalSymlinks, limits });
  };
  const caps = { jobsPerUser: config.jobQueuePerUser, itemsPerUser: config.jobItemsPerUser, jobs: config.jobQueue, items: config.jobItems };
  const jobs = new JobsService({ store: new JobsStore(db), files, actorOf, limits: () => settings.get().extraction, deleteItem: (a, p, permanent) => trash.delete(a, p, { permanent }), log, caps });
  const tus = new TusService(stores.uploads, files);
  const shareUploads = new ShareUploads({ files, tus, store: stores.shares, log: accessLog, notifications, webhooks, limits, audit });
  // What a deleted user leaves goes with them (services/users/user-removal.ts).
  users.belongings = { endJobs: (id, why) => jobs.endOwner(id, why), dropUploads: (id) => tus.dropUser(id), removeTrash: (id) => trash.purge.removeOwner(id), handTrash: (from, to) => trash.purge.handOver(from, to) };
  // Every task besides answering requests (sweeps, index, purges, job recovery, audit retention): `serve` starts it.
  const background = new Background({ config, log, tus, index, purge: trash.purge, jobs, audit, quota, versions: versionUpkeep, davLocks: () => davLocks, webhooks, shareLog: accessLog });
  const health = new HealthService(new HealthStore(db));
  const metrics = new MetricsRegistry();
  observeBackground({ health, metrics, index, jobs });
  // WebDAV (services/dav): the lock service is the gate asked before every change; locks leave with what moves or
  // goes for good, whatever path moved or deleted it (a follower of the files service).
  const davLocks = new DavLocksService({ store: new DavLocksStore(db), files, root: config.root, davPrefix: `${config.baseURL}/dav`, log });
  files.followers.push(davLocks.follower);
  const davProps = new DavPropsService({ store: new DavPropsStore(db), root: config.root, locks: () => davLocks });
  files.followers.push(davProps);
  const dav = new DavService({ files, trash, quota, props: davProps, settings: () => settings.get().webdav, locks: () => davLocks });
  const davLogin = new DavLogin({ tokenAuth, users: stores.users, settings: () => settings.get().webdav, hasSecondFactor: (id) => factors.hasSecondFactor(id), twoFactorRequired: () => !!settings.get().twoFactor?.required });
  return {
    config,
    log,
    db,
    stores,
    settings,
    users,
    auth,
    tokens,
    tokenAuth,
    accountSessions,
    files,
    tus,
    previews,
    hooks,
    runner,
    shares,
    shareUploads,
    notifications,
    trash,
    versions,
    versionUpkeep,
    health,
    // Per process (per test app): the HTTP layer registers request metrics; jobs and the index add theirs.
    metrics,
    audit,
    index,
    jobs,
    background,
    quota,
    factors,
    directory,
    oidc,
    dav,
    davProps,
    davLogin,
    davLocks,
    filebrowserImport: new FilebrowserImportService({ users, userStore: stores.users, shareStore: stores.shares, settings, settingsStore: stores.settings, root: config.root, followExternalSymlinks: config.followExternalSymlinks, audit }),
    close: async () => {
      await background.stop();
      removeGate();
      await jobs.close();
      index.close();
      work.close();
      return db.close();
    },
  };
}

/** First-run setup (settings, signing key, first admin). */
export async function initialise(s: Services, opts: { username?: string; password?: string } = {}): Promise<FirstRun> {
  return ensureInitialised({ settings: s.settings, users: s.stores.users, usersService: s.users, root: s.config.root }, opts);
}

export { createHttpApp } from './http/create-http-app';
export { drain, listenHttp } from './http/listen';
