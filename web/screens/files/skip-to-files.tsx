import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../../styles/skip-link.css';

/**
 * The files screen's first Tab stop (WCAG 2.4.1 bypass blocks): past the sidebar, header and toolbar, straight to
 * the list's one Tab stop (the cursor item, or the first). The listbox hands the focus on when that item is not
 * rendered. Hidden until it has the focus.
 */
export function SkipToFiles() {
  const { t } = useTranslation();
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const rows = document.querySelector<HTMLElement>('[data-testid=listing-rows]');
    const stop = rows?.querySelector<HTMLElement>('[data-testid=item][tabindex="0"]') ?? (rows?.tabIndex === 0 ? rows : null);
    stop?.focus();
  };
  return (
    <a href="#files-list" className="skip-link" data-testid="skip-to-files" onClick={skip}>
      {t('shortcuts.skipToFiles')}
    </a>
  );
}
