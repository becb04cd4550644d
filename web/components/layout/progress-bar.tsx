import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { progress } from '../../state/progress.state';

/**
 * An indeterminate stripe shows only once loading has taken this long: a quick load shows none (no flash), and an
 * animation costs CPU on every frame. Measured in headless Chromium (software compositing, as on machines without
 * a GPU): the listing's loading state with the pulsing skeleton and a 60 fps stripe took ~0.7 of a core, the very
 * core the load itself needed.
 */
const INDETERMINATE_AFTER_MS = 400;

/** A thin bar at the top: the upload percentage, or an indeterminate stripe while something loads. */
export function ProgressBar() {
  const { t } = useTranslation();
  const { pending, percent } = useSnapshot(progress);
  const busy = pending > 0;
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!busy) return setLate(false);
    const timer = setTimeout(() => setLate(true), INDETERMINATE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  const determinate = percent > 0;
  if (!determinate && !(busy && late)) return null;
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
