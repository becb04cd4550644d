import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { SecondFactorStep, TotpEnrolment } from '../../../server/contract/accounts';
import { CodeField } from '../../components/ui/code-field';
import { TotpSetup } from '../../components/ui/totp-setup';
import { backToForm, codeStep, loginFlow, passkeyStep } from '../../state/login-flow.state';
import { webAuthnAvailable } from '../../state/webauthn';
import { FlowNotice } from './flow-notice';

/**
 * The step after a right password: a code from the authenticator app (or a recovery code, or a passkey), or, when
 * a second factor is required and none is set up yet, the TOTP secret to add and a first code that confirms it.
 */
export function SecondStep({ step, enrolment }: { step: SecondFactorStep; enrolment: TotpEnrolment | null }) {
  const { t } = useTranslation();
  const { busy } = useSnapshot(loginFlow);
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const enrolling = step.step === 'enrol-second-factor';
  const canRecover = !enrolling && step.methods.includes('recovery');
  const canPasskey = !enrolling && step.methods.includes('passkey') && webAuthnAvailable();
  const ready = recovery ? code.trim().length > 0 : code.replace(/\s/g, '').length === 6;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!ready) return;
    void codeStep(recovery ? 'recovery' : 'totp', code).then(() => setCode(''));
  };

  const toggle = () => {
    setRecovery(!recovery);
    setCode('');
  };

  return (
    <>
      <div className="login__intro">
        <h1 className="login__title">{t(enrolling ? 'login.enrolTitle' : 'login.secondStepTitle')}</h1>
        <p className="login__subtitle">{t(enrolling ? 'login.enrolSubtitle' : recovery ? 'login.recoverySubtitle' : 'login.secondStepSubtitle')}</p>
      </div>
      {enrolling && enrolment && <TotpSetup enrolment={enrolment} />}
      <form className="login__form" onSubmit={onSubmit} noValidate aria-busy={busy} data-testid="second-step">
        <CodeField key={recovery ? 'r' : 't'} value={code} onChange={setCode} recovery={recovery} autoFocus />
        <FlowNotice />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy || !ready} data-testid="second-step-submit">
          {busy ? t('login.working') : t(enrolling ? 'login.enrolSubmit' : 'login.verify')}
        </button>
      </form>
      <div className="login__alternatives">
        {canPasskey && (
          <button type="button" className="btn btn--secondary btn--block" disabled={busy} onClick={() => void passkeyStep()} data-testid="second-step-passkey">
            {t('login.usePasskey')}
          </button>
        )}
        {canRecover && (
          <button type="button" className="link-button" onClick={toggle} data-testid="second-step-recovery">
            {t(recovery ? 'login.useApp' : 'login.useRecovery')}
          </button>
        )}
        <button type="button" className="link-button" onClick={() => backToForm()} data-testid="second-step-back">
          {t('login.back')}
        </button>
      </div>
    </>
  );
}
