/**
 * Which queued jobs may start: at most `global` at once, at most `perUser` of one user, first come first served
 * among the users allowed to start. A user's fifth copy waits behind their first; another user's job does not.
 */
export class JobQueue<T extends { id: number; owner: number }> {
  private waiting: T[] = [];
  private running = new Map<number, T>();

  constructor(private readonly global: number, private readonly perUser: number) {}

  push(job: T): void {
    this.waiting.push(job);
  }

  /** Removes a job that has not started; false when it is not waiting. */
  drop(id: number): boolean {
    const i = this.waiting.findIndex((j) => j.id === id);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  finished(id: number): void {
    this.running.delete(id);
  }

  /** The jobs that may start now (marked running). */
  next(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.waiting.length && this.running.size < this.global; ) {
      const j = this.waiting[i]!;
      let mine = 0;
      for (const r of this.running.values()) if (r.owner === j.owner) mine++;
      if (mine >= this.perUser) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.running.set(j.id, j);
      out.push(j);
    }
    return out;
  }

  /** Ids of every job this process holds (waiting or running). */
  ids(): number[] {
    return [...this.waiting.map((j) => j.id), ...this.running.keys()];
  }
}
