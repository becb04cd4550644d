import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { FactorStatus, TotpEnrolment } from '../../../server/contract/accounts';
import { account, cancelTotp, closeRecoveryCodes, confirmTotp, disableTotp, regenerateCodes, startTotp } from '../../state/account.state';
import { CodeField } from '../ui/code-field';
import { TotpSetup } from '../ui/totp-setup';
import { RecoveryCodes } from './recovery-codes';

/** What a code typed below is for: confirming a new secret, making new recovery codes, or turning TOTP off. */
type CodeUse = 'confirm' | 'regenerate' | 'disable';

/** A code form for one of the uses above; a TOTP or a recovery code (the server takes either where it may). */
function CodeForm({ use, onDone, onCancel }: { use: CodeUse; onDone: (code: string) => Promise<boolean>; onCancel: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!code.trim() || busy) return;
    setBusy(true);
    if (!(await onDone(code))) setCode('');
    setBusy(false);
  };
  return (
    <form className="account-inline-form" onSubmit={(e) => void submit(e)} data-testid={`totp-${use}-form`}>
      <CodeField value={code} onChange={setCode} autoFocus label={t(use === 'confirm' ? 'twoFactor.code' : 'account.twoFactor.codeOrRecovery')} />
      <button type="submit" className={use === 'disable' ? 'btn settings-btn--danger' : 'btn btn--primary'} disabled={busy || !code.trim()} data-testid={`totp-${use}-submit`}>
        {t(`account.twoFactor.submit.${use}`)}
      </button>
      <button type="button" className="btn btn--secondary" onClick={onCancel}>{t('settings.cancel')}</button>
    </form>
  );
}

/** Two-factor sign-in: set up an authenticator app (QR, secret, confirming code), recovery codes, turn off. */
export function TwoFactorCard({ factors }: { factors: FactorStatus }) {
  const { t } = useTranslation();
  const { enrolment, recoveryCodes } = useSnapshot(account);
  const [use, setUse] = useState<'regenerate' | 'disable' | null>(null);

  return (
    <section className="settings-card" data-testid="two-factor-card">
      <div className="settings-card__head account-card-head">
        <h2 className="settings-card__title">{t('account.twoFactor.title')}</h2>
        <span className={factors.totp ? 'account-status is-on' : 'account-status'} data-testid="totp-status" data-on={factors.totp}>
          {t(factors.totp ? 'account.twoFactor.on' : 'account.twoFactor.off')}
        </span>
      </div>
      <div className="settings-card__body">
        <p className="settings-help">{t(factors.required && !factors.totp ? 'account.twoFactor.requiredHelp' : 'account.twoFactor.help')}</p>
        {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onClose={closeRecoveryCodes} />}
        {!factors.totp && !enrolment && (
          <div className="account-actions">
            <button type="button" className="btn btn--primary" onClick={() => void startTotp()} data-testid="totp-start">{t('account.twoFactor.setUp')}</button>
          </div>
        )}
        {!factors.totp && enrolment && (
          <>
            <TotpSetup enrolment={enrolment as TotpEnrolment} />
            <CodeForm use="confirm" onDone={confirmTotp} onCancel={cancelTotp} />
          </>
        )}
        {factors.totp && (
          <>
            <p data-testid="recovery-left">{t('account.twoFactor.codesLeft', { count: factors.recoveryCodesLeft })}</p>
            {use ? (
              <CodeForm use={use} onCancel={() => setUse(null)} onDone={async (code) => {
                const ok = await (use === 'disable' ? disableTotp(code) : regenerateCodes(code));
                if (ok) setUse(null);
                return ok;
              }} />
            ) : (
              <div className="account-actions">
                <button type="button" className="btn btn--secondary" onClick={() => setUse('regenerate')} data-testid="recovery-regenerate">{t('account.twoFactor.regenerate')}</button>
                <button type="button" className="btn settings-btn--danger-outline" onClick={() => setUse('disable')} data-testid="totp-disable">{t('account.twoFactor.turnOff')}</button>
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
