import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../state/copy-text';
import { ExtraIcon } from '../share-page/icons';

/** Something shown once (a token's secret): the value, a warning that it will not be shown again, copy and close. */
export function SecretBox({ value, title, onClose, testId, children }: {
  value: string;
  title: string;
  onClose: () => void;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="secret-box" role="status" data-testid={testId}>
      <strong>{title}</strong>
      <p className="settings-help">{t('account.shownOnce')}</p>
      {children ?? <code className="secret-box__value" dir="ltr" data-testid={`${testId}-value`}>{value}</code>}
      <div className="account-actions">
        <button type="button" className="btn btn--secondary settings-btn--small" onClick={() => void copyText(value, 'account.notices.copied')} data-testid={`${testId}-copy`}>
          <ExtraIcon name="copy" />
          <span>{t('account.copy')}</span>
        </button>
        <button type="button" className="btn btn--primary settings-btn--small" onClick={onClose} data-testid={`${testId}-done`}>
          {t('account.done')}
        </button>
      </div>
    </div>
  );
}
