import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Router } from 'wouter';
import { browserLocale } from './i18n/locales';
import { setLocale } from './i18n/i18n';
import { AppRoutes } from './routes';
import { auth } from './state/auth.state';
import { pageConfig } from './api/page-config';
import { applyTheme } from './state/theme';

/** Delay before the start-up indicator is removed, once the routed view is mounted (spec §9). */
const LOADING_REMOVAL_MS = 200;

/** The application root: the router under the base path, plus theme and language following the user. */
export function App() {
  const { user } = useSnapshot(auth);
  const theme = user?.theme;
  const locale = user?.locale;

  useEffect(() => {
    const id = window.setTimeout(() => document.getElementById('loading')?.remove(), LOADING_REMOVAL_MS);
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
