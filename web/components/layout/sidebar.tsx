import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { auth, logout } from '../../state/auth.state';
import { canLogout, pageConfig } from '../../state/page-config';
import { Brand } from '../ui/brand';
import { Icon, type IconName } from '../ui/icon';

function NavLink({ href, icon, label, active, testId }: { href: string; icon: IconName; label: string; active: boolean; testId: string }) {
  return (
    <Link href={href} className={active ? 'nav__item is-active' : 'nav__item'} aria-current={active ? 'page' : undefined} data-testid={testId}>
      <Icon name={icon} />
      <span>{label}</span>
    </Link>
  );
}

/** Main navigation: My files, Settings and Logout when logged in; Login and Signup otherwise. */
export function Sidebar() {
  const { t } = useTranslation();
  const { loggedIn } = useSnapshot(auth);
  const [location] = useLocation();
  const at = (prefix: string) => location === prefix || location.startsWith(`${prefix}/`);

  return (
    <aside className="sidebar">
      <Link href={loggedIn ? '/files/' : '/login'} className="sidebar__brand">
        <Brand />
      </Link>
      <nav className="nav" aria-label={t('sidebar.navigation')}>
        {loggedIn ? (
          <>
            <NavLink href="/files/" icon="home" label={t('sidebar.myFiles')} active={at('/files')} testId="nav-files" />
            <NavLink href="/settings" icon="settings" label={t('sidebar.settings')} active={at('/settings')} testId="nav-settings" />
            {canLogout && (
              <button type="button" className="nav__item" data-testid="logout" onClick={() => void logout()}>
                <Icon name="logout" />
                <span>{t('sidebar.logout')}</span>
              </button>
            )}
          </>
        ) : (
          <>
            <NavLink href="/login" icon="login" label={t('sidebar.login')} active={false} testId="nav-login" />
            {pageConfig.Signup && (
              <NavLink href="/login?mode=signup" icon="signup" label={t('sidebar.signup')} active={false} testId="nav-signup" />
            )}
          </>
        )}
      </nav>
      {pageConfig.Version && <p className="sidebar__footer">{t('sidebar.version', { version: pageConfig.Version })}</p>}
    </aside>
  );
}
