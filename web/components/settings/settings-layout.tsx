import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { auth } from '../../state/auth.state';
import { AppLayout } from '../layout/app-layout';
import { usePageTitle } from '../layout/use-page-title';
import '../../styles/settings.css';

const TABS = [
  { href: '/settings/profile', key: 'settings.tabs.profile', testId: 'tab-profile', need: null },
  { href: '/settings/security', key: 'settings.tabs.security', testId: 'tab-security', need: null },
  { href: '/settings/shares', key: 'settings.tabs.shares', testId: 'tab-shares', need: 'share' },
  { href: '/settings/global', key: 'settings.tabs.global', testId: 'tab-global', need: 'admin' },
  { href: '/settings/users', key: 'settings.tabs.users', testId: 'tab-users', need: 'admin' },
  { href: '/settings/api', key: 'settings.tabs.api', testId: 'tab-api', need: 'admin' },
  { href: '/settings/audit', key: 'settings.tabs.audit', testId: 'tab-audit', need: 'admin' },
] as const;

/** Every settings page: the app layout and the settings navigation (by permission, spec §6). */
export function SettingsLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(auth);
  const [location] = useLocation();
  usePageTitle(title);
  const tabs = TABS.filter((tab) => tab.need === null || !!user?.perm[tab.need]);

  return (
    <AppLayout title={title}>
      <nav className="settings-tabs" aria-label={t('settings.navigation')} data-testid="settings-nav">
        {tabs.map((tab) => {
          const active = location === tab.href || location.startsWith(`${tab.href}/`);
          return (
            <Link key={tab.href} href={tab.href} className={active ? 'settings-tab is-active' : 'settings-tab'} aria-current={active ? 'page' : undefined} data-testid={tab.testId}>
              {t(tab.key)}
            </Link>
          );
        })}
      </nav>
      <div className="settings-page">{children}</div>
    </AppLayout>
  );
}
