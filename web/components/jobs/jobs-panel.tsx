import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Job } from '../../../server/contract/job';
import { cancel, clearEnded, followJobs, jobs, unfollowJobs } from '../../state/jobs.state';
import '../../styles/floating-panel.css';
import '../../styles/jobs.css';
import { useAutoCollapse } from '../layout/use-auto-collapse';
import { formatSize } from '../ui/format';
import { Icon } from '../ui/icon';

function JobRow({ job }: { job: Job }) {
  const { t, i18n } = useTranslation();
  // Sizes as everywhere else (1024-based, Intl units in the language's order); numbers in t() go through i18n.ts.
  const bytes = (n: number) => formatSize(n, i18n.language);
  const p = job.progress;
  const byBytes = p.bytesTotal > 0;
  const percent = job.state === 'done' ? 100 : byBytes ? Math.floor((p.bytesDone / p.bytesTotal) * 100) : p.filesTotal ? Math.floor((p.filesDone / p.filesTotal) * 100) : 0;
  const live = job.state === 'queued' || job.state === 'running';
  const count = job.params.itemCount ?? job.params.items.length; // lists show the first items of a long job, with its count
  const what = count === 1 ? job.params.items[0]! : t('jobs.items', { count });
  return (
    <li className={`jobs__job is-${job.state}`} data-testid="job" data-job={job.id} data-state={job.state}>
      <div className="jobs__main">
        <span className="jobs__name" title={what}>
          {/* the path is isolated on its own: "Copy · 2024 Holiday.jpg" keeps "2024" first in an Arabic row */}
          {t(`jobs.kind.${job.kind}`)} · <bdi>{what}</bdi>
        </span>
        <span className="jobs__state">{t(`jobs.state.${job.state}`)}</span>
        <span className="jobs__bar" aria-hidden="true">
          <span style={{ inlineSize: `${Math.min(100, percent)}%` }} />
        </span>
        {job.state === 'running' && (
          <span className="jobs__detail" data-testid="job-detail">
            {t('jobs.files', { done: p.filesDone, total: p.filesTotal })}
            {byBytes && ` · ${bytes(p.bytesDone)} / ${bytes(p.bytesTotal)}`}
            {job.rate > 0 && ` · ${byBytes ? t('jobs.rateBytes', { rate: bytes(job.rate) }) : t('jobs.rateFiles', { rate: job.rate })}`}
            {job.secondsLeft !== null && ` · ${t('jobs.left', { seconds: job.secondsLeft })}`}
          </span>
        )}
        {(job.state === 'failed' || job.state === 'interrupted') && job.error && (
          <span className="jobs__error" data-testid="job-error">
            {job.error}
          </span>
        )}
        {job.state === 'running' && p.current && (
          <span className="jobs__current" title={p.current}>
            {p.current}
          </span>
        )}
      </div>
      {live && (
        <button type="button" className="icon-btn" aria-label={t('jobs.cancel', { name: what })} title={t('buttons.cancel')} onClick={() => void cancel(job.id)} data-testid="job-cancel">
          <Icon name="close" />
        </button>
      )}
    </li>
  );
}

/** The background jobs of the user (copies, moves, deletes, archives, extractions), on every screen (in the panel dock). */
export function JobsPanel() {
  const { t } = useTranslation();
  const { list } = useSnapshot(jobs);
  const listId = useId();
  useEffect(() => {
    followJobs();
    return unfollowJobs;
  }, []);
  const running = list.filter((j) => j.state === 'queued' || j.state === 'running').length;
  const failures = list.filter((j) => j.state === 'failed' || j.state === 'interrupted').map((j) => j.id);
  const { open, toggle, panel } = useAutoCollapse(list.map((j) => j.id), list.length > 0 && running === 0, failures);
  if (!list.length) return null;
  return (
    <section className="jobs" aria-label={running ? t('jobs.title', { count: running }) : t('jobs.idle')} data-testid="jobs-panel" data-open={open} {...panel}>
      <header className="jobs__header">
        <button type="button" className="jobs__toggle" onClick={toggle} aria-expanded={open} aria-controls={listId} aria-label={open ? t('jobs.collapse') : t('jobs.expand')} data-testid="jobs-toggle">
          <Icon name={open ? 'chevronDown' : 'chevronRight'} />
        </button>
        <h2 className="jobs__title">{running ? t('jobs.title', { count: running }) : t('jobs.idle')}</h2>
        {running < list.length && (
          <button type="button" className="btn btn--secondary btn--small" onClick={clearEnded} data-testid="jobs-clear">
            {t('jobs.clear')}
          </button>
        )}
      </header>
      {/* Folded, the rows stay in the page (hidden), so a row keeps its place and its state for whoever reads it. */}
      <ul className="jobs__list" id={listId} hidden={!open}>
        {list.map((job) => (
          <JobRow key={job.id} job={job as Job} />
        ))}
      </ul>
    </section>
  );
}
