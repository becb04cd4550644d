import type { ArchiveFormat } from './archive';

/** Background jobs: long copies, moves, deletes, archives written into the scope, and extractions. */
export const JOB_KINDS = ['copy', 'move', 'delete', 'archive', 'extract'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** What happens when an item's name is taken at the destination, decided once for the whole job. */
export const JOB_CONFLICTS = ['replace', 'rename', 'skip'] as const;
export type JobConflict = (typeof JOB_CONFLICTS)[number];

/** The body of POST /api/jobs. Paths are virtual paths of the caller's scope. */
export interface JobRequest {
  kind: JobKind;
  /** Sources: items to copy, move, delete or archive; the one archive to extract. */
  items: string[];
  /** A folder for copy, move and archive; the new folder an extraction lands in (default: beside the archive, named after it). */
  destination?: string;
  conflict?: JobConflict;
  /** archive only: the format written (zip by default). */
  format?: ArchiveFormat;
  /** archive only: the new file's name (default: named after the selection). */
  name?: string;
  /** delete only: delete for good instead of moving into the trash (as DELETE ?permanent=true). */
  permanent?: boolean;
  /** Set by the server in lists and events: how many items the job has when `items` shows only the first few. */
  itemCount?: number;
}

export interface JobProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** The item being worked on (a virtual path). */
  current: string;
}

/** A job as the API shows it. Times are unix milliseconds; rate (bytes/s) and secondsLeft are estimates. */
export interface Job {
  id: number;
  owner: number;
  kind: JobKind;
  params: JobRequest;
  state: JobState;
  progress: JobProgress;
  rate: number;
  secondsLeft: number | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  error: string;
  /** What the job made or did: landed paths, skipped names, the archive written, the folder extracted into. */
  result: { paths?: string[]; skipped?: string[]; note?: string; pathCount?: number; skippedCount?: number } | null;
  /** True once a cancel was asked for from another process (the CLI, another instance) and the job has not yet stopped. */
  cancelRequested?: boolean;
}

/** Admin-set limits on what one extraction may write (bombs, entry floods). */
export interface ExtractionLimits {
  /** Total bytes written by one extraction. */
  maxBytes: number;
  /** Files and folders in one archive. */
  maxEntries: number;
  /** Bytes of one file. */
  maxEntryBytes: number;
  /** Bytes written per byte of archive (checked once a MiB has been written). */
  maxRatio: number;
}

/** The limits until an admin sets others: 10 GiB in all and per file, 100,000 entries, 1000 bytes per archive byte. */
export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = {
  maxBytes: 10 * 1024 ** 3,
  maxEntries: 100_000,
  maxEntryBytes: 10 * 1024 ** 3,
  maxRatio: 1000,
};

/** Archive names Filedeck extracts, longest suffix first, and the format each is read as (server and web app). */
export const EXTRACT_SUFFIXES: readonly (readonly [string, ArchiveFormat])[] = [
  ['.tar.gz', 'tar.gz'], ['.tgz', 'tar.gz'], ['.tar.bz2', 'tar.bz2'], ['.tbz2', 'tar.bz2'], ['.tbz', 'tar.bz2'],
  ['.tar.xz', 'tar.xz'], ['.txz', 'tar.xz'], ['.tar.lz4', 'tar.lz4'], ['.tar.sz', 'tar.sz'], ['.tar.br', 'tar.br'],
  ['.tar.zst', 'tar.zst'], ['.tzst', 'tar.zst'], ['.tar', 'tar'], ['.zip', 'zip'],
];

/** The format a file name says, and the name without its suffix (the default folder name); null when not an archive. */
export function extractableFormat(name: string): { format: ArchiveFormat; stem: string } | null {
  const lower = name.toLowerCase();
  for (const [suffix, format] of EXTRACT_SUFFIXES)
    if (lower.endsWith(suffix) && lower.length > suffix.length) return { format, stem: name.slice(0, name.length - suffix.length) };
  return null;
}
