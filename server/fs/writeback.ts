import { startWriteback } from './libc';

/** Bytes written between two writeback starts: big enough to be one efficient request, small enough to keep up. */
export const WRITEBACK_WINDOW = 8 * 1024 * 1024;

/**
 * Keeps an upload's data flowing to the disk while it arrives, so the fsync that must end every acknowledged write
 * (durability: nothing is acknowledged before it is on stable storage) finds almost nothing left to write. Without
 * it the kernel holds the whole body as dirty pages and the final fsync writes them all while the client waits:
 * a 1 GiB upload spent its last seconds there.
 *
 * Each time a window of new bytes is written, the writeback of that window is started with
 * sync_file_range(SYNC_FILE_RANGE_WRITE), which queues the pages and returns (it never waits for them). Only the
 * final fsync waits, and it still runs: this changes when the writing happens, never whether it is complete.
 */
export class Writeback {
  /** Where the next window starts (everything before it was handed to the kernel). */
  private from: number;
  private to: number;

  constructor(private readonly fd: number, at = 0) {
    this.from = at;
    this.to = at;
  }

  /** `n` bytes were written at the current end; starts a window's writeback when one is full. */
  wrote(n: number): void {
    this.to += n;
    if (this.to - this.from < WRITEBACK_WINDOW) return;
    startWriteback(this.fd, this.from, this.to - this.from);
    this.from = this.to;
  }
}
