import type { ExecSandbox, PageConfig, Settings } from '../contract/settings';
import type { Config } from '../core/config';
import { VERSION } from '../core/version';
import type { ToolPaths } from '../services/preview/tool-thumbs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The page configuration the web app reads at start (spec §3 "Page configuration flags"). No secrets here. */
export function pageConfig(config: Readonly<Config>, settings: Settings, execSandbox: ExecSandbox, previews?: { tools: ToolPaths; toolSandbox: ExecSandbox }): PageConfig {
  const b = settings.branding;
  return {
    Name: b.name,
    DisableExternal: b.disableExternal,
    DisableUsedPercentage: b.disableUsedPercentage,
    BaseURL: config.baseURL,
    StaticURL: `${config.baseURL}/static`,
    ReCaptcha: false,
    ReCaptchaKey: '',
    Signup: settings.signup,
    Version: VERSION,
    NoAuth: settings.authMethod === 'noauth',
    AuthMethod: settings.authMethod,
    LoginPage: settings.authMethod === 'json',
    LogoutPage: '/login',
    Theme: b.theme,
    EnableThumbs: config.enableThumbnails,
    ThumbTools: { pdf: !!previews?.tools.pdf, video: !!previews?.tools.video, heic: !!previews?.tools.heic },
    ThumbSandbox: previews?.toolSandbox ?? 'off',
    ResizePreview: config.resizePreview,
    EnableExec: config.enableExec,
    ExecSandbox: execSandbox,
    TusSettings: settings.tus,
    CSS: !!b.files && existsSync(join(b.files, 'custom.css')),
    Color: b.color,
    Sso: settings.oidc.enabled && settings.oidc.issuer && settings.oidc.clientId ? [{ id: 'oidc', name: settings.oidc.name || 'SSO', url: `${config.baseURL}/api/auth/oidc/login` }] : [],
    // The password form also serves LDAP, which still signs in with local passwords off (decision 0046).
    LocalLogin: settings.localLogin || (settings.ldap.enabled && !!settings.ldap.url),
    Passkeys: settings.authMethod === 'json',
    WebDAV: settings.webdav.enabled,
  };
}

/** JSON that is safe inside a <script> element: no "</script>", no HTML comment openers, no line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Rewrites the built index.html for this server: asset URLs under <baseURL>/static, title, config, custom CSS. */
export function renderIndex(template: string, cfg: PageConfig): string {
  const title = escapeHtml(cfg.Name || 'Filedeck');
  const css = cfg.CSS ? `<link rel="stylesheet" href="${escapeHtml(cfg.StaticURL)}/custom.css">` : '';
  // Replacer functions, never replacement strings: admin-set text ("$&", "$'", "$1"...) is inserted as it is.
  const config = `<script id="filedeck-config" type="application/json">${scriptSafeJson(cfg)}</script>${css}</head>`;
  return template
    .replace(/(src|href)="\.\//g, (_m, attr: string) => `${attr}="${cfg.StaticURL}/`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace('</head>', () => config);
}
