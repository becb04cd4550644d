import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { dismissNotice, notices, type Notice } from '../../state/notices.state';
import { pageConfig } from '../../api/page-config';
import { Icon } from '../ui/icon';
import { ISSUES_URL } from './links';

function NoticeCard({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  // Keys are dynamic here (each caller names its own); i18next falls back to the key itself if one is missing.
  const text = notice.translate ? t(notice.message as 'notices.genericError') : notice.message;
  if (notice.kind === 'success') {
    return (
      <div className="notice notice--success" role="status" data-testid="notice-success">
        <Icon name="check" />
        <span>{text}</span>
      </div>
    );
  }
  return (
    <div className="notice notice--error" role="alert" data-testid="notice-error">
      <Icon name="alert" />
      <p className="notice__text">
        {notice.lead && <strong className="notice__lead" data-testid="notice-lead">{t(notice.lead as 'notices.noSpace')} </strong>}
        {text}
      </p>
      <div className="notice__actions">
        {!pageConfig.DisableExternal && (
          <a className="btn btn--secondary btn--small" href={ISSUES_URL} target="_blank" rel="noopener noreferrer" data-testid="notice-report">
            {t('buttons.reportIssue')}
          </a>
        )}
        <button type="button" className="btn btn--primary btn--small" onClick={() => dismissNotice(notice.id)} data-testid="notice-close">
          {t('buttons.close')}
        </button>
      </div>
    </div>
  );
}

/** Error popups (they stay until closed) and success popups (bottom right, one second). */
export function Notices() {
  const { t } = useTranslation();
  const { list } = useSnapshot(notices);
  const errors = list.filter((n) => n.kind === 'error');
  const successes = list.filter((n) => n.kind === 'success');
  return (
    <div role="region" aria-label={t('notices.region')}>
      {errors.length > 0 && (
        <div className="notices notices--errors">
          {errors.map((n) => (
            <NoticeCard key={n.id} notice={n} />
          ))}
        </div>
      )}
      <div className="notices notices--success" aria-live="polite">
        {successes.map((n) => (
          <NoticeCard key={n.id} notice={n} />
        ))}
      </div>
    </div>
  );
}
