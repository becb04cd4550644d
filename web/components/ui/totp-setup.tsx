import { useTranslation } from 'react-i18next';
import type { TotpEnrolment } from '../../../server/contract/accounts';
import { QrImage } from './qr-image';

/** The secret to add to an authenticator app: its QR code and the same secret as text for typing in by hand. */
export function TotpSetup({ enrolment }: { enrolment: TotpEnrolment }) {
  const { t } = useTranslation();
  // Groups of four read more easily aloud or typed; apps ignore the spaces.
  const grouped = enrolment.secret.replace(/(.{4})(?=.)/g, '$1 ');
  return (
    <div className="totp-setup" data-testid="totp-setup">
      <p className="totp-setup__help">{t('twoFactor.scanHelp')}</p>
      <QrImage text={enrolment.uri} alt={t('twoFactor.qrAlt')} testId="totp-qr" />
      <p className="totp-setup__manual">
        <span>{t('twoFactor.manualKey')}</span>
        <code className="totp-setup__secret" dir="ltr" data-testid="totp-secret" data-secret={enrolment.secret}>{grouped}</code>
      </p>
    </div>
  );
}
