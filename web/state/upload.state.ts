import { proxy, ref } from 'valtio/vanilla';
import { isApiError } from '../api/client';
import { postUpload, tusUpload, type Transfer } from '../api/upload';
import { auth } from './auth.state';
import { refreshListing } from './files.state';
import { showError, showSuccess } from './notices.state';
import { setUploadPercent } from './progress.state';

/** At most this many transfers run at once (spec §9). */
export const MAX_CONCURRENT = 5;
/** Progress reaches the UI at most once per this many milliseconds (spec §9). */
export const PROGRESS_THROTTLE_MS = 100;

export type JobState = 'queued' | 'active' | 'done' | 'failed' | 'cancelled';

export interface UploadJob {
  id: number;
  /** What the panel shows: the path relative to the folder the upload started in. */
  name: string;
  /** Decoded target path; folders end with '/'. */
  path: string;
  isDir: boolean;
  size: number;
  loaded: number;
  overwrite: boolean;
  state: JobState;
  error: string;
  file: File | null;
  /** Recent speed in bytes per second (0 until measured); time left is derived from it. */
  rate: number;
  /** The failure was a 507: a quota or the disk is full (the panel says so before the server's message). */
  noSpace?: boolean;
}

/** One item to upload: a file (or an empty folder) at a path relative to the target folder. */
export interface UploadEntry {
  relPath: string;
  isDir: boolean;
  file: File | null;
}

/** Totals over the jobs not cancelled: bytes sent, bytes to send, and the combined speed (bytes per second). */
export interface UploadTotals {
  loaded: number;
  size: number;
  rate: number;
}

export const uploads = proxy<{ jobs: UploadJob[]; percent: number; totals: UploadTotals }>({ jobs: [], percent: 0, totals: { loaded: 0, size: 0, rate: 0 } });

/** Speed is measured over at least this long, and smoothed, so the figure does not jump with every chunk. */
const RATE_WINDOW_MS = 500;
const RATE_SMOOTHING = 0.4;
/** The last measurement per job: when, and how many bytes had been sent. */
const samples = new Map<number, { at: number; loaded: number }>();

/** Seconds left at the current speed, or null while the speed is unknown. */
export function secondsLeft(loaded: number, size: number, rate: number): number | null {
  return rate > 0 ? Math.max(0, size - loaded) / rate : null;
}

function measure(job: UploadJob, now: number): void {
  if (job.state !== 'active') {
    if (job.rate) job.rate = 0;
    samples.delete(job.id);
    return;
  }
  const last = samples.get(job.id);
  if (!last) {
    samples.set(job.id, { at: now, loaded: job.loaded });
    return;
  }
  if (now - last.at < RATE_WINDOW_MS) return;
  const instant = ((job.loaded - last.loaded) * 1000) / (now - last.at);
  job.rate = job.rate ? job.rate + RATE_SMOOTHING * (instant - job.rate) : instant;
  samples.set(job.id, { at: now, loaded: job.loaded });
}

let nextId = 1;
const transfers = new Map<number, Transfer>();
const loaded = new Map<number, number>();
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let succeeded = 0;

const beforeUnload = (e: BeforeUnloadEvent) => {
  e.preventDefault();
  e.returnValue = '';
};

const busy = () => uploads.jobs.some((j) => j.state === 'queued' || j.state === 'active');

/** Copies the latest byte counts into the state and the overall percentage (sum loaded / sum sizes, rounded up). */
function flush(): void {
  flushTimer = null;
  let total = 0;
  let sum = 0;
  let rate = 0;
  const now = performance.now();
  for (const job of uploads.jobs) {
    if (job.state === 'cancelled') continue;
    const l = job.state === 'done' ? job.size : (loaded.get(job.id) ?? job.loaded);
    if (job.loaded !== l) job.loaded = l;
    measure(job, now);
    total += job.size;
    sum += l;
    rate += job.rate;
  }
  uploads.percent = total > 0 ? Math.min(100, Math.ceil((sum / total) * 100)) : 0;
  uploads.totals = { loaded: sum, size: total, rate };
  // While anything runs, keep measuring even if no progress event arrives (a stalled upload's speed falls).
  if (busy()) scheduleFlush();
  setUploadPercent(uploads.percent);
}

function scheduleFlush(): void {
  flushTimer ??= setTimeout(flush, PROGRESS_THROTTLE_MS);
}

function finishAll(): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  window.removeEventListener('beforeunload', beforeUnload);
  const ok = succeeded > 0;
  succeeded = 0;
  uploads.jobs = [];
  uploads.percent = 0;
  uploads.totals = { loaded: 0, size: 0, rate: 0 };
  loaded.clear();
  samples.clear();
  setUploadPercent(0);
  if (ok) showSuccess('upload.done');
  void refreshListing();
}

function start(job: UploadJob): void {
  job.state = 'active';
  const opts = { override: job.overwrite, token: () => auth.token, onProgress: (n: number) => (loaded.set(job.id, n), scheduleFlush()) };
  const transfer = job.isDir || !job.file || job.size === 0 ? postUpload(job.path, job.isDir ? null : job.file, opts) : tusUpload(job.path, job.file, opts);
  transfers.set(job.id, transfer);
  transfer.done.then(
    () => {
      if (job.state !== 'active') return;
      job.state = 'done';
      succeeded++;
    },
    (e: unknown) => {
      if (job.state !== 'active') return;
      job.state = 'failed';
      job.error = isApiError(e) ? e.message.trim() : String(e);
      job.noSpace = isApiError(e) && e.status === 507;
      showError(e);
    },
  ).finally(() => {
    transfers.delete(job.id);
    scheduleFlush();
    pump();
  });
}

/** Starts queued jobs while fewer than MAX_CONCURRENT run; when nothing is left, wraps up. */
function pump(): void {
  let active = uploads.jobs.filter((j) => j.state === 'active').length;
  for (const job of uploads.jobs) {
    if (active >= MAX_CONCURRENT) break;
    if (job.state !== 'queued') continue;
    start(job);
    active++;
  }
  if (!busy() && uploads.jobs.length) finishAll();
}

/** Queues uploads into `base` (a decoded folder path ending in '/'). */
export function enqueueUploads(entries: readonly UploadEntry[], base: string, overwrite: boolean): void {
  if (!entries.length) return;
  if (!busy()) window.addEventListener('beforeunload', beforeUnload);
  for (const e of entries) {
    const rel = e.relPath.replace(/^\/+/, '');
    uploads.jobs.push({
      id: nextId++,
      name: rel,
      path: base + rel + (e.isDir && !rel.endsWith('/') ? '/' : ''),
      isDir: e.isDir,
      size: e.file && !e.isDir ? e.file.size : 0,
      loaded: 0,
      overwrite,
      state: 'queued',
      error: '',
      file: e.file ? ref(e.file) : null,
      rate: 0,
    });
  }
  flush();
  pump();
}

/** Stops one job: a running transfer is aborted and the server drops the partial file. */
export function cancelUpload(id: number): void {
  const job = uploads.jobs.find((j) => j.id === id);
  if (!job || (job.state !== 'queued' && job.state !== 'active')) return;
  job.state = 'cancelled';
  job.error = '001 Connection aborted';
  const t = transfers.get(id);
  if (t) void t.cancel();
  scheduleFlush();
  pump();
}

/** Stops every queued and running job. */
export function cancelAllUploads(): void {
  for (const job of [...uploads.jobs]) cancelUpload(job.id);
}

/** Whether any upload is queued or running. */
export const uploading = busy;
