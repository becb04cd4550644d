import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { progress } from '../../state/progress.state';

/** A thin bar at the top: the upload percentage, or an indeterminate stripe while something loads. */
export function ProgressBar() {
  const { t } = useTranslation();
  const { pending, percent } = useSnapshot(progress);
  if (percent <= 0 && pending <= 0) return null;
  const determinate = percent > 0;
  return (
    <div
      className={determinate ? 'progress' : 'progress is-indeterminate'}
      role="progressbar"
      aria-label={t('header.progress')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={determinate ? percent : undefined}
      data-testid="progress"
    >
      <span className="progress__fill" style={determinate ? { inlineSize: `${percent}%` } : undefined} />
    </div>
  );
}
