import { proxy } from 'valtio/vanilla';

/** The global progress bar: a count of pending loads (indeterminate) and an upload percentage. */
export const progress = proxy({ pending: 0, percent: 0 });

/** Runs `work` while the bar shows activity. */
export async function withProgress<T>(work: () => Promise<T>): Promise<T> {
  progress.pending++;
  try {
    return await work();
  } finally {
    progress.pending--;
  }
}

export function setUploadPercent(percent: number): void {
  progress.percent = percent;
}
