import type { Theme } from '../../server/contract/user';
import { pageConfig } from '../api/page-config';

/** Applies the theme (the user's choice, else the instance default; empty = light) and the branding colour. */
export function applyTheme(userTheme: Theme | undefined): void {
  const root = document.documentElement;
  const theme = userTheme || pageConfig.Theme || 'light';
  root.dataset.theme = theme === 'dark' ? 'dark' : 'light';
  const color = pageConfig.Color;
  if (color && typeof CSS !== 'undefined' && CSS.supports('color', color)) root.style.setProperty('--color-primary', color);
}
