import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { cancelAllUploads, cancelUpload, secondsLeft, uploads, type UploadJob } from '../../state/upload.state';
import { formatDuration, formatPercent, formatRate, formatSize } from '../ui/format';
import '../../styles/floating-panel.css';
import '../../styles/upload.css';
import { Icon } from '../ui/icon';
import { useAutoCollapse } from '../layout/use-auto-collapse';

const STATE_KEYS = { queued: 'upload.queued', active: 'upload.active', done: 'upload.finished', failed: 'upload.failed', cancelled: 'upload.cancelled' } as const;

/** "3.1 MB of 12 MB · 1.5 MB/s, 6 sec left": bytes, speed and time left, each written by Intl for the language. */
function Figures({ loaded, size, rate, testId }: { loaded: number; size: number; rate: number; testId: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const left = secondsLeft(loaded, size, rate);
  return (
    <span className="upload__figures" data-testid={testId} data-rate={Math.round(rate)}>
      <span>{t('upload.progress', { loaded: formatSize(loaded, lng), size: formatSize(size, lng) })}</span>
      <span>{left === null ? t('upload.measuring') : t('upload.speed', { rate: formatRate(rate, lng), left: formatDuration(left, lng) })}</span>
    </span>
  );
}

function JobRow({ job }: { job: UploadJob }) {
  const { t, i18n } = useTranslation();
  const percent = job.size > 0 ? Math.min(100, Math.floor((job.loaded / job.size) * 100)) : job.state === 'done' ? 100 : 0;
  const running = job.state === 'queued' || job.state === 'active';
  return (
    <li className={`upload__job is-${job.state}`} data-testid="upload-job" data-job={job.name} data-state={job.state}>
      <Icon name={job.isDir ? 'folder' : 'file'} className={job.isDir ? 'is-dir' : undefined} />
      <div className="upload__main">
        <span className="upload__name" title={job.name}>
          {job.name}
        </span>
        <span className="upload__state" data-testid="upload-job-state">
          {job.noSpace && <strong>{t('notices.noSpace')} </strong>}
          {job.error || (job.state === 'active' && !job.isDir ? formatPercent(percent, i18n.language) : t(STATE_KEYS[job.state]))}
        </span>
        {job.state === 'active' && !job.isDir && <Figures loaded={job.loaded} size={job.size} rate={job.rate} testId="upload-job-figures" />}
        {!job.isDir && (
          <span className="upload__bar" aria-hidden="true">
            <span style={{ inlineSize: `${percent}%` }} />
          </span>
        )}
      </div>
      {running && (
        <button type="button" className="icon-btn" aria-label={t('buttons.cancelUpload', { name: job.name })} title={t('buttons.cancel')} onClick={() => cancelUpload(job.id)} data-testid="upload-cancel">
          <Icon name="close" />
        </button>
      )}
    </li>
  );
}

/** The running uploads: overall percentage, each job's state, and cancel buttons (in the panel dock). */
export function UploadPanel() {
  const { t, i18n } = useTranslation();
  const { jobs, percent, totals } = useSnapshot(uploads);
  const listId = useId();
  const running = jobs.some((j) => j.state === 'queued' || j.state === 'active');
  const failures = jobs.filter((j) => j.state === 'failed').map((j) => j.id);
  const { open, toggle, panel } = useAutoCollapse(jobs.map((j) => j.id), jobs.length > 0 && !running, failures);
  if (!jobs.length) return null;
  const count = jobs.filter((j) => j.state !== 'cancelled').length;
  return (
    <section className="upload" aria-label={t('upload.title', { count })} data-testid="upload-panel" data-open={open} {...panel}>
      <header className="upload__header">
        <button type="button" className="upload__toggle" onClick={toggle} aria-expanded={open} aria-controls={listId} aria-label={open ? t('upload.collapse') : t('upload.expand')} data-testid="upload-toggle">
          <Icon name={open ? 'chevronDown' : 'chevronRight'} />
        </button>
        <h2 className="upload__title">
          {t('upload.title', { count })} <span className="upload__percent" data-testid="upload-percent" data-percent={percent}>
            {formatPercent(percent, i18n.language)}
          </span>
        </h2>
        <button type="button" className="btn btn--secondary btn--small" onClick={cancelAllUploads} data-testid="upload-cancel-all">
          {t('buttons.cancelAll')}
        </button>
      </header>
      {totals.size > 0 && <Figures loaded={totals.loaded} size={totals.size} rate={totals.rate} testId="upload-total-figures" />}
      <ul className="upload__jobs" id={listId} hidden={!open}>
        {jobs.map((job) => (
          <JobRow key={job.id} job={job as UploadJob} />
        ))}
      </ul>
    </section>
  );
}
