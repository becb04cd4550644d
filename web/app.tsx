import { useEffect, useLayoutEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Router } from 'wouter';
import { browserLocale } from './i18n/locales';
import { setLocale } from './i18n/i18n';
import { AppRoutes } from './routes';
import { auth } from './state/auth.state';
import { pageConfig } from './api/page-config';
import { applyTheme } from './state/theme';

/** Delay before a start-up indicator already shown is removed, once the routed view is mounted (spec §9). */
const LOADING_REMOVAL_MS = 200;

/** The application root: the router under the base path, plus theme and language following the user. */
export function App() {
  const { user } = useSnapshot(auth);
  const theme = user?.theme;
  const locale = user?.locale;

  useLayoutEffect(() => {
    const indicator = document.getElementById('loading');
    if (!indicator) return;
    // It shows only once the start has taken 300 ms (app-loading--deferred). Not shown yet, it goes before the view
    // is painted: kept, it would appear over the mounted view for a moment, a spinner over a ready page that
    // swallowed clicks on it (a login form's submit, in tests). Shown already, it stays its 200 ms (spec §9).
    if (getComputedStyle(indicator).visibility === 'hidden') {
      indicator.remove();
      return;
    }
    const id = window.setTimeout(() => indicator.remove(), LOADING_REMOVAL_MS);
    return () => window.clearTimeout(id);
  }, []);
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    void setLocale(locale || browserLocale());
  }, [locale]);

  return (
    <Router base={pageConfig.BaseURL}>
      <AppRoutes />
    </Router>
  );
}
