import { useTranslation } from 'react-i18next';
import { instanceName } from '../../api/page-config';
import { ExtraIcon } from '../share-page/icons';
import { SecretBox } from './secret-box';

/** Saves the codes as a text file through a temporary link (no server round trip: they exist only in this page). */
function download(codes: readonly string[]): void {
  const text = `${instanceName}\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${instanceName.replace(/[^\w.-]+/g, '-').toLowerCase()}-recovery-codes.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Ten one-time recovery codes, shown once after they are made: copy, download as .txt, then close. */
export function RecoveryCodes({ codes, onClose }: { codes: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <SecretBox value={codes.join('\n')} title={t('account.recovery.title')} onClose={onClose} testId="recovery-codes">
      <p className="settings-help">{t('account.recovery.help')}</p>
      <ol className="recovery-codes" dir="ltr" data-testid="recovery-codes-list">
        {codes.map((c) => <li key={c}><code>{c}</code></li>)}
      </ol>
      <div className="account-actions">
        <button type="button" className="btn btn--secondary settings-btn--small" onClick={() => download(codes)} data-testid="recovery-codes-download">
          <ExtraIcon name="download" />
          <span>{t('account.recovery.download')}</span>
        </button>
      </div>
    </SecretBox>
  );
}
