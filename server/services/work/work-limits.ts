import { availableParallelism } from 'node:os';
import { FairSlots } from './fair-slots';
import { HeavyWork } from './heavy-work';

/**
 * The heavy work of the server and its limits, in one place. Waiting jobs queue (fairly: one user's jobs never
 * hold more than `perUser` slots) and are refused with a 429 and Retry-After when the queue is full or the wait
 * passes `waitMs`; running jobs past `timeoutMs` end with a 503.
 * - checksums: 4 at once, 2 per user; a 30-minute limit (a 4 GB file hashes in seconds; a slow disk or a huge file
 *   must still end). A client that hangs up stops the read within 1 MiB.
 * - previews: `imageProcessors` at once (config, default 4), 2 per user (a folder of thumbnails waits its turn
 *   rather than failing: a generous wait and queue); 60 s per render (a 50-megapixel decode takes a few seconds).
 */
export interface Work {
  checksums: HeavyWork;
  previews: HeavyWork;
  close(): void;
}

export function createWork(opts: { imageProcessors: number }): Work {
  const checksums = new HeavyWork({ global: 4, perUser: 2, maxWaiting: 64, waitMs: 30_000, timeoutMs: 30 * 60_000 }, 'checksums');
  const previews = new HeavyWork({ global: opts.imageProcessors, perUser: 2, maxWaiting: 1024, waitMs: 60_000, timeoutMs: 60_000 }, 'previews');
  return {
    checksums,
    previews,
    close() {
      checksums.close();
      previews.close();
    },
  };
}

/**
 * bcrypt, for every password hash and check (logins, share passwords, current-password checks, user changes, the
 * CLI). One module-wide instance because the password functions are plain functions used everywhere. Workers:
 * one fewer than the cores (at least 1, at most 2), so a flood of logins leaves a core to the file requests;
 * the rest wait (up to 2 minutes, 10,000 waiting) and the rate limiter refuses repeat offenders before they get here.
 */
let bcrypt: HeavyWork | null = null;
export function passwordWork(): HeavyWork {
  const n = Math.max(1, Math.min(2, availableParallelism() - 1));
  bcrypt ??= new HeavyWork({ global: n, perUser: n, maxWaiting: 10_000, waitMs: 120_000, timeoutMs: 120_000 }, 'password checks');
  return bcrypt;
}

/**
 * Subtitle conversions (SRT/ASS to WebVTT, up to 10 MiB: most of a second of CPU each), for signed-in users and
 * public shares alike. One module-wide instance, like bcrypt's, because subtitles are opened by a plain function
 * (files/subtitles.ts) from two routes. Workers: one fewer than the cores (at least 1, at most 2), 2 per user (a
 * share's visitors count as its owner); 256 may wait up to a minute; a conversion past 30 s ends with a 503.
 */
let subtitles: HeavyWork | null = null;
export function subtitleWork(): HeavyWork {
  const n = Math.max(1, Math.min(2, availableParallelism() - 1));
  subtitles ??= new HeavyWork({ global: n, perUser: 2, maxWaiting: 256, waitMs: 60_000, timeoutMs: 30_000 }, 'subtitle conversions');
  return subtitles;
}

/**
 * Searches of the name index or by walk run on the main thread in short chunks that yield (index-search.ts), each
 * holding one of these slots while it runs: 4 at once, 2 per user, 256 waiting up to 30 s. index-search.ts keeps
 * one set per server (`fresh`); without one, the module-wide set.
 */
let searches: FairSlots | null = null;
export function searchSlots(fresh = false): FairSlots {
  const make = () => new FairSlots({ global: 4, perUser: 2, maxWaiting: 256, waitMs: 30_000 }, 'searches');
  if (fresh) return make();
  searches ??= make();
  return searches;
}
