/**
 * The page's inline start-up script (scripts/build.ts puts it into index.html; the server allows it by its hash).
 * It runs while the HTML is parsed, before the app's own script has even arrived, and uses that wait on a
 * /files/… page: with a stored, unexpired token it asks for the folder's first page at once (api/early-request.ts
 * hands the answer to the app's first request for it), and it has a worker load the language data of the date and
 * size formatters the listing shows (a page's first Intl formatter takes 40-145 ms on the main thread to load it).
 * It must stay small: it is part of every page load.
 */
import { startEarlyRequest } from './api/early-request';
import { pageConfig, usesEmptyLogin } from './api/page-config';
import { firstPageApiPath } from './api/resources';
import { warmFormattersOffThread } from './i18n/format';
import { browserLocale } from './i18n/locales';
import { currentFilesPath } from './screens/files/files-path';
import { rawAppPath } from './state/navigation';
import { decodeToken, readStoredToken, timeLeft, type TokenPayload } from './state/token';
import { localeTag } from '../server/contract/locales';

/** The stored token's claims while it has time left, else null. */
function storedSession(): { token: string; claims: TokenPayload } | null {
  const token = readStoredToken();
  if (!token) return null;
  try {
    const claims = decodeToken(token);
    return timeLeft(claims) > 0 ? { token, claims } : null;
  } catch {
    return null;
  }
}

function start(): void {
  const raw = rawAppPath();
  if (raw !== '/files' && !raw.startsWith('/files/')) return;
  // Sessions of the no-login modes start with a login of their own: no stored token to ask with.
  const session = usesEmptyLogin ? null : storedSession();
  if (session) startEarlyRequest(`${pageConfig.BaseURL}/api${firstPageApiPath(currentFilesPath())}`, session.token);
  warmFormattersOffThread(localeTag(session?.claims.user.locale || browserLocale()));
}

start();
