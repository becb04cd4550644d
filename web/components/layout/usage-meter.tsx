import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { usage } from '../../state/usage.state';
import { formatPercent, formatSize } from '../ui/format';

/** "used of total (NN %)" for the volume of the current folder, with a bar; the percent as Intl writes it for the language. */
export function UsageMeter() {
  const { t, i18n } = useTranslation();
  const { used, total, loaded } = useSnapshot(usage);
  if (!loaded || total <= 0) return null;
  const percent = Math.min(100, Math.round((used / total) * 100));
  const lng = i18n.language;
  const text = t('sidebar.usage', { used: formatSize(used, lng), total: formatSize(total, lng), percent: formatPercent(percent, lng) });
  return (
    <div className="usage" data-testid="usage">
      <div className="usage__bar" role="meter" aria-label={t('sidebar.usageLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={text}>
        <span className="usage__fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="usage__text" data-testid="usage-text">{text}</p>
    </div>
  );
}
