import { pageConfig } from '../api/page-config';

/**
 * The current in-app path (without the base URL), still percent-encoded exactly as in the address bar.
 * The router decodes paths with decodeURI, which is lossy for names containing '%', so file paths and
 * redirect targets are always derived from this raw form.
 */
export function rawAppPath(): string {
  const path = window.location.pathname;
  const base = pageConfig.BaseURL;
  if (base && (path === base || path.startsWith(`${base}/`))) return path.slice(base.length) || '/';
  return path || '/';
}

/** Navigates to an in-app path from outside React (state actions); the router listens to history changes. */
export function goTo(appPath: string, replace = false): void {
  const url = pageConfig.BaseURL + appPath;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
}

/**
 * A redirect target is accepted only when it is a path inside this app: it must start with a single '/'
 * (not '//' or '/\', which browsers treat as another host) and contain no control characters.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !/^\/(?![/\\])/.test(value)) return null;
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}

/** The login URL that brings the user back to the current page afterwards. */
export function loginRedirectPath(): string {
  return `/login?redirect=${encodeURIComponent(rawAppPath() + window.location.search)}`;
}
