import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { auth, logout } from '../../state/auth.state';
import { currentFolder } from '../../state/files.state';
import { canLogout, instanceName, pageConfig } from '../../api/page-config';
import { showPrompt } from '../../state/prompts.state';
import { Brand } from '../ui/brand';
import { NotificationsButton } from '../notifications/notifications-button';
import { Icon, type IconName } from '../ui/icon';
import { PROJECT_URL } from './links';
import { QuotaMeter } from './quota-meter';
import { UsageMeter } from './usage-meter';

function NavLink({ href, icon, label, active, testId }: { href: string; icon: IconName; label: string; active: boolean; testId: string }) {
  return (
    <Link href={href} className={active ? 'nav__item is-active' : 'nav__item'} aria-current={active ? 'page' : undefined} data-testid={testId}>
      <Icon name={icon} />
      <span>{label}</span>
    </Link>
  );
}

function NavButton({ icon, label, onClick, testId }: { icon: IconName; label: string; onClick(): void; testId: string }) {
  return (
    <button type="button" className="nav__item" data-testid={testId} onClick={onClick}>
      <Icon name={icon} />
      <span>{label}</span>
    </button>
  );
}

/** Credits: the product link (plain text without external links), the version and the help prompt. */
function Credits({ onFiles }: { onFiles: boolean }) {
  const { t } = useTranslation();
  return (
    <p className="sidebar__footer" data-testid="credits">
      {pageConfig.DisableExternal ? (
        <span data-testid="brand-text">{t('sidebar.brandLink')}</span>
      ) : (
        <a href={PROJECT_URL} target="_blank" rel="noopener noreferrer" data-testid="brand-link">
          {t('sidebar.brandLink')}
        </a>
      )}
      {pageConfig.Version && <span className="sidebar__version">{t('sidebar.version', { version: pageConfig.Version })}</span>}
      {onFiles && (
        <button type="button" className="link-button sidebar__help" onClick={() => showPrompt('help')} data-testid="help-link">
          {t('sidebar.help')}
        </button>
      )}
    </p>
  );
}

/**
 * Main navigation: My files, New folder and New file (create permission), Trash, Settings and Logout when logged in;
 * Login and Signup otherwise. On files routes: the user's quota meter, or the disk-usage meter without a quota.
 */
export function Sidebar() {
  const { t } = useTranslation();
  const { loggedIn, user } = useSnapshot(auth);
  const [location] = useLocation();
  const at = (prefix: string) => location === prefix || location.startsWith(`${prefix}/`);
  const onFiles = at('/files');
  const base = () => (onFiles ? currentFolder() : '/');

  return (
    <aside className="sidebar">
      {/* named by its label: on a phone the brand shows only its lettermark, which is aria-hidden */}
      <Link href={loggedIn ? '/files/' : '/login'} className="sidebar__brand">
        <Brand />
      </Link>
      <nav className="nav" aria-label={t('sidebar.navigation')}>
        {loggedIn ? (
          <>
            <NavLink href="/files/" icon="home" label={t('sidebar.myFiles')} active={onFiles} testId="nav-files" />
            {user?.perm.create && (
              <>
                <NavButton icon="folderPlus" label={t('sidebar.newFolder')} onClick={() => showPrompt('newDir', { base: base() })} testId="new-folder" />
                <NavButton icon="filePlus" label={t('sidebar.newFile')} onClick={() => showPrompt('newFile', { base: base() })} testId="new-file" />
              </>
            )}
            <NavLink href="/trash" icon="trash" label={t('trash.nav')} active={at('/trash')} testId="nav-trash" />
            {user?.perm.share && <NotificationsButton />}
            <NavLink href="/settings" icon="settings" label={t('sidebar.settings')} active={at('/settings')} testId="nav-settings" />
            {canLogout && <NavButton icon="logout" label={t('sidebar.logout')} onClick={() => void logout()} testId="logout" />}
          </>
        ) : (
          <>
            <NavLink href="/login" icon="login" label={t('sidebar.login')} active={false} testId="nav-login" />
            {pageConfig.Signup && <NavLink href="/login?mode=signup" icon="signup" label={t('sidebar.signup')} active={false} testId="nav-signup" />}
          </>
        )}
      </nav>
      {loggedIn && onFiles && <QuotaMeter volume={!pageConfig.DisableUsedPercentage && <UsageMeter />} />}
      <Credits onFiles={loggedIn && onFiles} />
    </aside>
  );
}
