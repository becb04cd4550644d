import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { cancelAllUploads, cancelUpload, uploads, type UploadJob } from '../../state/upload.state';
import '../../styles/upload.css';
import { Icon } from '../ui/icon';

const STATE_KEYS = { queued: 'upload.queued', active: 'upload.active', done: 'upload.finished', failed: 'upload.failed', cancelled: 'upload.cancelled' } as const;

function JobRow({ job }: { job: UploadJob }) {
  const { t } = useTranslation();
  const percent = job.size > 0 ? Math.min(100, Math.floor((job.loaded / job.size) * 100)) : job.state === 'done' ? 100 : 0;
  const running = job.state === 'queued' || job.state === 'active';
  return (
    <li className={`upload__job is-${job.state}`} data-testid="upload-job" data-job={job.name} data-state={job.state}>
      <Icon name={job.isDir ? 'folder' : 'file'} className={job.isDir ? 'is-dir' : undefined} />
      <div className="upload__main">
        <span className="upload__name" title={job.name}>
          {job.name}
        </span>
        <span className="upload__state">{job.error || (job.state === 'active' && !job.isDir ? `${percent}%` : t(STATE_KEYS[job.state]))}</span>
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

/** The running uploads: overall percentage, each job's state, and cancel buttons. */
export function UploadPanel() {
  const { t } = useTranslation();
  const { jobs, percent } = useSnapshot(uploads);
  const [open, setOpen] = useState(true);
  if (!jobs.length) return null;
  const count = jobs.filter((j) => j.state !== 'cancelled').length;
  return (
    <section className="upload" aria-label={t('upload.title', { count })} data-testid="upload-panel">
      <header className="upload__header">
        <button type="button" className="upload__toggle" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={open ? t('upload.collapse') : t('upload.expand')}>
          <Icon name={open ? 'chevronDown' : 'chevronRight'} />
        </button>
        <h2 className="upload__title">
          {t('upload.title', { count })} <span className="upload__percent" data-testid="upload-percent">{percent}%</span>
        </h2>
        <button type="button" className="btn btn--secondary btn--small" onClick={cancelAllUploads} data-testid="upload-cancel-all">
          {t('buttons.cancelAll')}
        </button>
      </header>
      {open && (
        <ul className="upload__jobs">
          {jobs.map((job) => (
            <JobRow key={job.id} job={job as UploadJob} />
          ))}
        </ul>
      )}
    </section>
  );
}
