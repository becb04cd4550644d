import type { MetricsRegistry } from '../../core/metrics';
import type { NameIndex } from '../index/name-index.service';
import type { JobsService } from '../jobs/jobs.service';
import type { HealthService } from './health.service';

/** How long the index's lag probe may take before it is reported as at least this long (seconds). */
const LAG_PROBE_MS = 5000;
/** Above this, /ready says the index is lagging. */
const LAGGING_S = 2;
const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const;

/**
 * The background parts in /ready and /metrics: the name index (state, size, lag, builds) and jobs (by state, and
 * those this instance finished). The index's lag is the time its worker takes to answer a ping queued behind every
 * change reported so far; one probe runs at a time, and a scrape reads the newest finished one.
 */
export function observeBackground(d: { health: HealthService; metrics: MetricsRegistry; index: NameIndex; jobs: JobsService }): void {
  let lagSeconds = 0;
  let probing = false;
  const probe = () => {
    if (probing || d.index.status().state === 'off') return;
    probing = true;
    const t0 = performance.now();
    let timer: Timer | undefined;
    const limit = new Promise<void>((r) => (timer = setTimeout(r, LAG_PROBE_MS)));
    void Promise.race([d.index.settled(), limit]).then(() => {
      clearTimeout(timer);
      lagSeconds = (performance.now() - t0) / 1000;
      probing = false;
    });
  };
  const describe = () => {
    const st = d.index.status();
    probe();
    if (st.state === 'building') return `building ${st.percent}%`;
    if (st.state === 'off') return 'off';
    return lagSeconds > LAGGING_S ? `lagging ${lagSeconds.toFixed(1)} s` : 'ready';
  };
  d.health.addInfo('index', async () => describe());

  d.metrics.gauge('filedeck_index_state', 'The name index state (1 for the current one): off, building, ready', ['state'], (g) => {
    const st = d.index.status().state;
    for (const s of ['off', 'building', 'ready']) g.set(s === st ? 1 : 0, { state: s });
  });
  d.metrics.gauge('filedeck_index_entries', 'Entries (files and folders) in the name index', ['kind'], (g) => {
    const st = d.index.status();
    g.set(st.entries, { kind: 'all' });
    g.set(st.folders, { kind: 'folders' });
  });
  d.metrics.gauge('filedeck_index_lag_seconds', 'Time the index worker took to catch up with every change reported before a probe', [], (g) => {
    probe();
    g.set(lagSeconds);
  });
  d.metrics.gauge('filedeck_index_builds_total', 'Full index builds started by this process (first build and rebuilds)', [], (g) => g.set(d.index.builds));
  d.metrics.gauge('filedeck_jobs', 'Jobs of every instance by state', ['state'], async (g) => {
    const by = await d.health.jobsByState();
    for (const s of JOB_STATES) g.set(by[s] ?? 0, { state: s });
  });
  const finished = d.metrics.counter('filedeck_jobs_finished_total', 'Jobs this instance saw end, by kind and final state', ['kind', 'state']);
  const seen = new Map<number, string>();
  // Only this instance's own runs are counted: a job's end is published once here by the process that ran it.
  d.jobs.onLocalEnd((job) => {
    if (seen.get(job.id) === job.state) return;
    seen.set(job.id, job.state);
    if (seen.size > 10_000) seen.clear();
    finished.inc({ kind: job.kind, state: job.state });
  });
}
