import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Brand } from '../ui/brand';

/**
 * The visitor's frame (issue 37 item 5): no app sidebar and no Login link, a slim header with the owner's branding
 * (the instance name and lettermark, painted in the branding colour that `applyTheme` set) and the shared item's
 * name. The colour scheme follows `prefers-color-scheme` unless the instance forces a theme (`applyTheme`).
 */
export function ShareLayout({ itemName, children }: { itemName: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="share-layout" data-testid="share-layout">
      <a className="skip-link" href="#share-main">{t('sharePage.skipToContent')}</a>
      <header className="share-header" data-testid="share-header">
        <Brand />
        {itemName && (
          <h1 className="share-header__item" title={itemName} data-testid="share-header-item">
            <span className="sr-only">{t('sharePage.sharedItem')}: </span>
            <bdi>{itemName}</bdi>
          </h1>
        )}
      </header>
      <main id="share-main" className="share-layout__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
