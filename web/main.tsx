import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { warmFormatters } from './i18n/format';
import { initI18n, setLocale } from './i18n/i18n';
import { browserLocale } from './i18n/locales';
import { auth, startSession } from './state/auth.state';
import { applyTheme } from './state/theme';
import './styles/theme.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/login.css';
import './styles/files.css';
import './styles/bidi.css';

/** Start-up: English first (bundled), then the session, then the user's language and theme, then the first render. */
async function boot(): Promise<void> {
  initI18n();
  applyTheme(undefined);
  const session = startSession();
  warmFormatters(browserLocale());
  await session;
  applyTheme(auth.user?.theme);
  await setLocale(auth.user?.locale || browserLocale());
  const root = document.getElementById('root');
  if (!root) throw new Error('filedeck: #root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
