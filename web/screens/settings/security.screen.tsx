import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ApiTokenInfo, FactorStatus, SessionInfo } from '../../../server/contract/accounts';
import { PasskeysCard } from '../../components/account/passkeys-card';
import { SessionsCard } from '../../components/account/sessions-card';
import { TokensCard } from '../../components/account/tokens-card';
import { TwoFactorCard } from '../../components/account/two-factor-card';
import { WebdavCard } from '../../components/account/webdav-card';
import { pageConfig } from '../../api/page-config';
import { SettingsLayout } from '../../components/settings/settings-layout';
import { ErrorState } from '../../components/ui/error-state';
import { account, loadAccount } from '../../state/account.state';
import { auth } from '../../state/auth.state';
import '../../styles/account.css';

/** /settings/security: the signed-in user's sessions, two-factor sign-in, passkeys, API tokens and the WebDAV address. */
export function SecurityScreen() {
  const { t } = useTranslation();
  const { sessions, factors, tokens, error } = useSnapshot(account);
  const { user } = useSnapshot(auth);

  useEffect(() => {
    void loadAccount();
  }, []);

  let body;
  if (error) body = <ErrorState status={error.status} />;
  else if (!sessions || !factors || !tokens || !user) body = <p className="status-text" role="status">{t('settings.loading')}</p>;
  else
    body = (
      <div className="settings-stack">
        <SessionsCard sessions={sessions as SessionInfo[]} />
        <div className="settings-columns">
          <TwoFactorCard factors={factors as FactorStatus} />
          <PasskeysCard passkeys={factors.passkeys} />
        </div>
        <TokensCard tokens={tokens as ApiTokenInfo[]} own={user.perm} />
        {pageConfig.WebDAV && user.webdav !== false && <WebdavCard username={user.username} />}
      </div>
    );

  return <SettingsLayout title={t('routes.security')}>{body}</SettingsLayout>;
}
