import type { Theme } from '../../server/contract/user';
import { pageConfig } from '../api/page-config';

/** What the person chose: a fixed theme, or whatever the system says (followed live). */
export type ThemeMode = 'light' | 'dark' | 'system';

/**
 * The stored values stay the reference's ('' | 'light' | 'dark'): a user's '' falls back to the instance default,
 * and an instance default of '' means System.
 */
export function themeMode(userTheme: Theme | undefined): ThemeMode {
  const theme = userTheme || pageConfig.Theme;
  return theme === 'dark' || theme === 'light' ? theme : 'system';
}

const darkQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null);

let mode: ThemeMode = 'system';
let listening = false;

function paint(): void {
  const root = document.documentElement;
  const dark = mode === 'dark' || (mode === 'system' && !!darkQuery()?.matches);
  root.dataset.theme = dark ? 'dark' : 'light';
  root.dataset.themeMode = mode;
}

/**
 * Applies the theme (the user's choice, else the instance default, else the system's) and the branding colour.
 * Every page calls this, signed in or not (login and the public share page included); in System mode a change of
 * the system's colour scheme repaints at once, through one matchMedia listener for the page's lifetime.
 */
export function applyTheme(userTheme: Theme | undefined): void {
  mode = themeMode(userTheme);
  const query = darkQuery();
  if (query && !listening) {
    listening = true;
    query.addEventListener('change', () => mode === 'system' && paint());
  }
  paint();
  const color = pageConfig.Color;
  if (color && typeof CSS !== 'undefined' && CSS.supports('color', color)) document.documentElement.style.setProperty('--color-primary', color);
}
