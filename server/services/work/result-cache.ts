/**
 * Results of heavy work kept in memory by key, least recently used first out, bounded by their total size in
 * bytes (an entry larger than the bound is not kept). Keys name the input's identity (device, inode, time, size),
 * so a changed file is a different key and its old result simply ages out.
 */
export class ResultCache {
  private readonly items = new Map<string, Uint8Array<ArrayBuffer>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    const v = this.items.get(key);
    if (v) {
      this.items.delete(key);
      this.items.set(key, v); // most recently used now
    }
    return v;
  }

  set(key: string, value: Uint8Array<ArrayBuffer>): void {
    if (value.length > this.maxBytes) return;
    const old = this.items.get(key);
    if (old) {
      this.items.delete(key);
      this.bytes -= old.length;
    }
    this.items.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.items) {
      if (this.bytes <= this.maxBytes) break;
      this.items.delete(k);
      this.bytes -= v.length;
    }
  }

  stats(): { entries: number; bytes: number } {
    return { entries: this.items.size, bytes: this.bytes };
  }
}
