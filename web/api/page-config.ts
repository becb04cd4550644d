import type { PageConfig } from '../../server/contract/settings';

/** Used when the server did not inject a config (e.g. a dev server serving the raw index.html). */
const DEFAULTS: PageConfig = {
  Name: '',
  DisableExternal: false,
  DisableUsedPercentage: false,
  BaseURL: '',
  StaticURL: '/static',
  ReCaptcha: false,
  ReCaptchaKey: '',
  Signup: false,
  Version: '',
  NoAuth: false,
  AuthMethod: 'json',
  LoginPage: true,
  LogoutPage: '/login',
  Theme: '',
  EnableThumbs: true,
  ThumbTools: { pdf: false, video: false, heic: false },
  ThumbSandbox: 'off',
  ResizePreview: true,
  EnableExec: false,
  ExecSandbox: 'off',
  TusSettings: { chunkSize: 10 * 1024 * 1024, retryCount: 5 },
  CSS: false,
  Color: '',
  Sso: [],
  LocalLogin: true,
  Passkeys: true,
  WebDAV: true,
};

function readPageConfig(): Readonly<PageConfig> {
  let injected: Partial<PageConfig> = {};
  const el = typeof document === 'undefined' ? null : document.getElementById('filedeck-config');
  if (el?.textContent) {
    try {
      const parsed: unknown = JSON.parse(el.textContent);
      if (parsed && typeof parsed === 'object') injected = parsed as Partial<PageConfig>;
    } catch (e) {
      console.error('filedeck: ignoring an unreadable page config', e);
    }
  }
  const cfg = { ...DEFAULTS, ...injected };
  // The base path never ends with a slash: routes and API paths are appended to it.
  cfg.BaseURL = (cfg.BaseURL || '').replace(/\/+$/, '');
  return Object.freeze(cfg);
}

/** The page configuration, parsed once from the JSON the server injects into index.html. */
export const pageConfig = readPageConfig();

/** The instance name shown in titles and on the login card. */
export const instanceName = pageConfig.Name || 'Filedeck';

/** Start-up logs in with an empty body instead of restoring a stored token (no-auth and proxy modes). */
export const usesEmptyLogin = pageConfig.NoAuth || pageConfig.AuthMethod === 'proxy' || !pageConfig.LoginPage;

/** Whether the UI offers a logout action. */
export const canLogout = pageConfig.AuthMethod !== 'noauth' && !pageConfig.NoAuth;
