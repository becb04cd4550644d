import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { SecondFactorStep, TotpEnrolment } from '../../../server/contract/accounts';
import { pageConfig } from '../../api/page-config';
import { Brand } from '../../components/ui/brand';
import { usePageTitle } from '../../components/layout/use-page-title';
import { RecoveryCodes } from '../../components/account/recovery-codes';
import { loginFlow, recoveryCodesSeen, ssoArrival } from '../../state/login-flow.state';
import { FlowNotice } from './flow-notice';
import { LoginForm } from './login-form';
import { SecondStep } from './second-step';
import { SignInOptions } from './sign-in-options';
import '../../styles/account.css';
import '../../styles/login-steps.css';

/**
 * The login page: a centred card with the instance name and the ways in (the local form when allowed, single
 * sign-on buttons, a passkey), or the second step once a password was accepted.
 */
export function LoginScreen() {
  const { t } = useTranslation();
  usePageTitle(t('routes.login'));
  const { step, enrolment, recoveryCodes } = useSnapshot(loginFlow);

  useEffect(() => {
    void ssoArrival();
  }, []);

  return (
    <main className="login">
      <div className="login__card">
        <Brand size="lg" />
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onClose={recoveryCodesSeen} />
        ) : step ? (
          <SecondStep key={step.ticket} step={step as SecondFactorStep} enrolment={enrolment as TotpEnrolment | null} />
        ) : (
          <>
            {pageConfig.LocalLogin ? (
              <LoginForm />
            ) : (
              <div className="login__intro">
                <h1 className="login__title">{t('login.signInTitle')}</h1>
                <p className="login__subtitle">{t('login.ssoSubtitle')}</p>
              </div>
            )}
            <FlowNotice />
            <SignInOptions />
          </>
        )}
      </div>
    </main>
  );
}
