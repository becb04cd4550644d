/**
 * Wire types of accounts beyond the password: single sign-on (OpenID Connect, LDAP), second factors (TOTP,
 * recovery codes, passkeys), personal API tokens and the sessions page. The endpoints that carry them are listed
 * in docs/decisions/0044-accounts-api.md. Keep this file free of imports (type-only ones of contract/ aside).
 */
import type { PermName, Rule } from './user';

/** How a session was started: shown on the sessions page and audited. */
export type LoginMethod = 'password' | 'ldap' | 'oidc' | 'passkey' | 'proxy' | 'noauth';

/** What one directory group gives its members; re-applied at every login, so a removed group takes it back. */
export interface GroupGrant {
  /** The group's name exactly as the provider sends it (OIDC claim value, LDAP group name). */
  group: string;
  /** Members are admins. */
  admin: boolean;
  /** Permissions this group turns on (over the defaults template); absent ones are left as the template has them. */
  perm: PermName[];
  /** The scope members get ('' = the defaults template's); the first listed group with a scope wins. */
  scope: string;
  /** Rules added for members, after the template's. */
  rules: Rule[];
  /** Bytes members may store (0 = no quota from this group); the largest wins. Used by quotas (issue 35). */
  quota: number;
}

/** What OpenID Connect and LDAP share: who may sign in, who is created, what groups give. */
export interface DirectoryLoginSettings {
  enabled: boolean;
  /** Make an account at the first login (through the one user-creation path); off: only linked accounts sign in. */
  createUsers: boolean;
  /** Only members of one of these groups may sign in; empty = anyone the provider accepts. */
  allowedGroups: string[];
  /** Members of this group are admins ('' = none through this provider). */
  adminGroup: string;
  groupGrants: GroupGrant[];
}

export interface OidcSettings extends DirectoryLoginSettings {
  /** Label of the login page's button: "Sign in with {name}". */
  name: string;
  /** The issuer URL (discovery at {issuer}/.well-known/openid-configuration). */
  issuer: string;
  clientId: string;
  /** Write-only: never returned by any API (answered as "" with clientSecretSet). */
  clientSecret: string;
  scopes: string[];
  /** The claim naming the user (dotted path for nested claims), e.g. preferred_username. */
  usernameClaim: string;
  /** The claim carrying groups (dotted path), read from the ID token, else the userinfo endpoint; a list or a string. */
  groupsClaim: string;
  /** On logout, send the browser to the provider's end_session_endpoint. */
  logoutAtProvider: boolean;
}

export interface LdapSettings extends DirectoryLoginSettings {
  /** ldap://host:389 or ldaps://host:636. */
  url: string;
  /** Upgrade ldap:// with StartTLS before binding. */
  startTls: boolean;
  /** PEM file of the CA to trust for LDAPS/StartTLS ('' = the system's). */
  caFile: string;
  /** The service account used to search for users ('' = anonymous search). */
  bindDn: string;
  /** Write-only, like the OIDC client secret. */
  bindPassword: string;
  /** Where users are searched. */
  userBase: string;
  /** The search filter; {username} is replaced by the escaped login name. */
  userFilter: string;
  /** The attribute holding the Filedeck username (uid, sAMAccountName…). */
  usernameAttribute: string;
  /** Where groups are searched ('' = use the user's memberOf attribute). */
  groupBase: string;
  /** The group filter; {dn} and {username} are replaced (escaped). */
  groupFilter: string;
  /** The attribute naming a group (cn). */
  groupNameAttribute: string;
}

export interface TwoFactorSettings {
  /** Every password login needs a second factor; users without one are sent to enrol. */
  required: boolean;
}

/** Sign-in methods settings (GET/PUT /api/settings, fields `oidc`, `ldap`, `twoFactor`, `localLogin`). */
export interface AccountSettings {
  oidc: OidcSettings;
  ldap: LdapSettings;
  twoFactor: TwoFactorSettings;
  /** Username and password form on the login page; off leaves SSO and passkeys (a local admin can still use the CLI). */
  localLogin: boolean;
}

/** A sign-in button on the login page (page config `Sso`). */
export interface SsoProviderInfo {
  id: 'oidc';
  name: string;
  /** Where the button goes: starts the provider's login (GET, redirects). */
  url: string;
}

/** Answer of POST /api/login (status 401, JSON) when the password was right but a second step is needed. */
export interface SecondFactorStep {
  step: 'second-factor' | 'enrol-second-factor';
  /** Short-lived (5 min), single-use, bound to the user; sent back with the second step. */
  ticket: string;
  methods: SecondFactorMethod[];
}
export type SecondFactorMethod = 'totp' | 'recovery' | 'passkey';

/** The user's second factors (GET /api/account/factors). */
export interface FactorStatus {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: PasskeyInfo[];
  /** A second factor is required for this user (globally or by an admin). */
  required: boolean;
}

export interface PasskeyInfo {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** POST /api/account/totp: a secret to confirm with a code (not active until confirmed). */
export interface TotpEnrolment {
  secret: string;
  /** otpauth://totp/... for the QR code. */
  uri: string;
}

/** A personal API token as listed (never its secret). */
export interface ApiTokenInfo {
  id: string;
  name: string;
  createdAt: number;
  /** null = never expires. */
  expiresAt: number | null;
  lastUsedAt: number | null;
  /** The permissions it carries: a subset of the owner's, checked again at every use. */
  perm: PermName[];
  /** Only this folder and below (virtual path in the owner's scope); null = the whole scope. */
  path: string | null;
  readOnly: boolean;
}

/** POST /api/account/tokens body. */
export interface ApiTokenRequest {
  name: string;
  /** Days until it expires; null or absent = never. */
  expiresInDays?: number | null;
  perm: PermName[];
  path?: string | null;
  readOnly?: boolean;
}

/** The answer of a token's creation: the only time its secret is shown. */
export interface ApiTokenCreated extends ApiTokenInfo {
  token: string;
}

/** One session on the sessions page. */
export interface SessionInfo {
  /** A public id (not the session's secret id). */
  id: string;
  method: LoginMethod;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  address: string;
  /** A short description of the client from its User-Agent ("Firefox on Linux"). */
  device: string;
  /** The session this request was made with. */
  current: boolean;
}
