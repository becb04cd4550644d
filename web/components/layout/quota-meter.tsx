import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { accountUsage, loadAccountUsage, NEAR_QUOTA, quotaShare } from '../../state/account-usage.state';
import { formatCount, formatPercent, formatSize } from '../ui/format';

/**
 * The signed-in user's usage against their quota: a bar and "1.2 GB of 5 GB" (and the file count when files are
 * limited), amber from 90 %, red at the limit. A quota is the limit that matters to its user, so it replaces the
 * volume's meter; without one the volume's meter stays (the disk is then the limit) with the user's own usage under it.
 */
export function QuotaMeter({ volume }: { volume: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { usage } = useSnapshot(accountUsage);
  useEffect(() => {
    void loadAccountUsage();
  }, []);
  const lng = i18n.language;
  const share = usage ? quotaShare(usage) : null;
  if (!usage || share === null) {
    if (!usage) return <>{volume}</>;
    return (
      <>
        {volume}
        <p className="usage__own" data-testid="own-usage">{t('sidebar.ownUsage', { used: formatSize(usage.bytes, lng) })}</p>
      </>
    );
  }
  const q = usage.quota!;
  const percent = Math.min(100, Math.round(share * 100));
  const level = share >= 1 ? 'over' : share >= NEAR_QUOTA ? 'near' : 'ok';
  const bytesText = q.bytes ? t('sidebar.quotaBytes', { used: formatSize(usage.bytes, lng), total: formatSize(q.bytes, lng) }) : formatSize(usage.bytes, lng);
  const filesText = q.files ? t('sidebar.quotaFiles', { used: formatCount(usage.files, lng), total: formatCount(q.files, lng) }) : '';
  const text = [bytesText, filesText].filter(Boolean).join(' · ');
  return (
    <div className={`usage usage--quota is-${level}`} data-testid="quota" data-level={level}>
      <div
        className="usage__bar" role="meter" aria-label={t('sidebar.quotaLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}
        aria-valuetext={`${text} (${formatPercent(percent, lng)})`}
      >
        <span className="usage__fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="usage__text" data-testid="quota-text">{text}</p>
      {level !== 'ok' && (
        <p className="usage__warning" data-testid="quota-warning">{t(level === 'over' ? 'sidebar.quotaFull' : 'sidebar.quotaNear')}</p>
      )}
    </div>
  );
}
