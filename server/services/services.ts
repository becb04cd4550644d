import type { Config } from '../core/config';
import type { Logger } from '../core/log';
import type { MetricsRegistry } from '../core/metrics';
import type { Sql } from '../db/sql';
import type { PreviewCacheStore } from '../db/preview-cache.store';
import type { SessionsStore } from '../db/sessions.store';
import type { SettingsStore } from '../db/settings.store';
import type { SharesStore } from '../db/shares.store';
import type { UploadsStore } from '../db/uploads.store';
import type { UsersStore } from '../db/users.store';
import type { AuditService } from './audit/audit.service';
import type { AuthService } from './auth/auth.service';
import type { Background } from './background/background';
import type { JobsService } from './jobs/jobs.service';
import type { FilesService } from './files/files.service';
import type { HealthService } from './health/health.service';
import type { TusService } from './files/tus.service';
import type { Hooks } from './hooks/hooks';
import type { PreviewService } from './preview/preview.service';
import type { Runner } from './runner/runner.service';
import type { SettingsService } from './settings/settings.service';
import type { SharesService } from './shares/shares.service';
import type { ShareUploads } from './shares/share-uploads';
import type { NotificationsService } from './shares/notifications.service';
import type { FilebrowserImportService } from './import/filebrowser/filebrowser-import.service';
import type { TrashService } from './trash/trash.service';
import type { VersionsService } from './versions/versions.service';
import type { VersionUpkeep } from './versions/version-upkeep';
import type { UsersService } from './users/users.service';
import type { NameIndex } from './index/name-index.service';
import type { QuotaService } from './quota/quota.service';
import type { TokensService } from './tokens/tokens.service';
import type { TokenAuth } from './tokens/token-auth';
import type { AccountSessions } from './tokens/account-sessions';
import type { FactorsService } from './factors/factors.service';
import type { DirectoryLogin } from './sso/directory-login';
import type { OidcService } from './sso/oidc.service';
import type { DavService } from './dav/dav.service';
import type { DavPropsService } from './dav/dav-props.service';
import type { DavLogin } from './dav/dav-login';
import type { DavLocksService } from './dav/dav-locks.service';

/** Everything the HTTP layer and the CLI share. Built once per process by createServices(). */
export interface Services {
  config: Readonly<Config> & { configFile?: string | null };
  log: Logger;
  db: Sql;
  stores: { users: UsersStore; sessions: SessionsStore; settings: SettingsStore; shares: SharesStore; uploads: UploadsStore; previews: PreviewCacheStore };
  settings: SettingsService;
  users: UsersService;
  auth: AuthService;
  /** Personal API tokens: made, listed, revoked (services/tokens). */
  tokens: TokensService;
  /** Checks an API token presented with a request, and HTTP Basic credentials (services/tokens/token-auth.ts). */
  tokenAuth: TokenAuth;
  /** The sessions page: list, end one, end the others, last seen (services/tokens/account-sessions.ts). */
  accountSessions: AccountSessions;
  files: FilesService;
  tus: TusService;
  previews: PreviewService;
  hooks: Hooks;
  runner: Runner;
  shares: SharesService;
  /** File requests: uploads through public links (shares v2). */
  shareUploads: ShareUploads;
  /** In-app notifications (files arrived through a file request). */
  notifications: NotificationsService;
  /** The per-instance name index: search and folder sizes (services/index); `serve` starts it. */
  index: NameIndex;
  /** Quotas: the one decision whether a write may land (services/quota; the files root's write gate). */
  quota: QuotaService;
  /** Deletes into the trash; restore, delete forever, empty, purge (services/trash). */
  trash: TrashService;
  /** Versions of overwritten files: list, download, restore, delete (services/versions). */
  versions: VersionsService;
  /** Their crash recovery and retention (Background runs it; `filedeck versions prune`). */
  versionUpkeep: VersionUpkeep;
  /** The audit log's one home (record, list, purge). */
  audit: AuditService;
  /** Readiness checks (database, later the index), active-session count, database clock. */
  health: HealthService;
  /** Prometheus metrics of this process; anything may register more (names unique). */
  metrics: MetricsRegistry;
  /** Background copy, move, delete, archive and extraction jobs (services/jobs). */
  jobs: JobsService;
  /** Every task besides answering requests, started by `serve` (services/background); close() stops it. */
  background: Background;
  /** Second factors (TOTP, recovery codes, passkeys) and the login's second step (services/factors). */
  factors: FactorsService;
  /** Who a directory (OIDC, LDAP) says someone is: linking, creation, groups re-applied (services/sso). */
  directory: DirectoryLogin;
  /** OpenID Connect sign-in (services/sso/oidc.service.ts). */
  oidc: OidcService;
  /** WebDAV methods over the same homes as the web API (services/dav, docs/decisions/0050-webdav.md). */
  dav: DavService;
  /** WebDAV dead properties (dav_props), following moves as a FilesService follower. */
  davProps: DavPropsService;
  /** Who HTTP Basic credentials on /dav/ name (tokens, or remembered account passwords). */
  davLogin: DavLogin;
  /** WebDAV locks (dav_locks, shared by every instance): LOCK, UNLOCK and the gate the methods ask. */
  davLocks: DavLocksService;
  /** `filedeck import filebrowser`: plan and one-transaction apply (services/import/filebrowser). */
  filebrowserImport: FilebrowserImportService;
  close(): Promise<void>;
}
