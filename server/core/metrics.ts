/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms with labels, and
 * gauges read at scrape time. Any layer may register its own metrics on the process's registry (jobs, index);
 * names must be unique. Label values must never carry user paths or names: route patterns, methods, statuses.
 * Updates are a Map lookup and an addition, cheap enough for every request.
 */

type Labels = Record<string, string>;

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (names: readonly string[], values: readonly string[]) =>
  names.length ? `{${names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`).join(',')}}` : '';
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

interface Metric {
  readonly name: string;
  render(): string;
}

abstract class Labelled<T> implements Metric {
  protected readonly series = new Map<string, { values: string[]; data: T }>();
  constructor(
    readonly name: string,
    protected readonly help: string,
    protected readonly labelNames: readonly string[],
    private readonly type: string,
  ) {}
  protected abstract fresh(): T;
  protected abstract lines(labels: string[], data: T): string[];
  /** The data of one series (created at 0), for a caller that keeps it to update it directly (request metrics). */
  handle(labels?: Labels): T {
    return this.at(labels);
  }
  protected at(labels?: Labels): T {
    const values = this.labelNames.map((n) => labels?.[n] ?? '');
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { values, data: this.fresh() }));
    return s.data;
  }
  render(): string {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const s of this.series.values()) out.push(...this.lines(s.values, s.data));
    return out.join('\n');
  }
}

/** A value that only goes up (requests, bytes). */
export class Counter extends Labelled<{ v: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'counter');
  }
  protected fresh() {
    return { v: 0 };
  }
  protected lines(values: string[], d: { v: number }) {
    return [`${this.name}${labelText(this.labelNames, values)} ${num(d.v)}`];
  }
  inc(labels?: Labels, by = 1): void {
    if (by > 0) this.at(labels).v += by;
  }
  /** The current value (tests, readiness). */
  get(labels?: Labels): number {
    return this.at(labels).v;
  }
}

/** A value that goes up and down; `collect` (if given) sets it at scrape time. */
export class Gauge extends Labelled<{ v: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = [], private readonly collect?: (g: Gauge) => void | Promise<void>) {
    super(name, help, labelNames, 'gauge');
  }
  protected fresh() {
    return { v: 0 };
  }
  protected lines(values: string[], d: { v: number }) {
    return [`${this.name}${labelText(this.labelNames, values)} ${num(d.v)}`];
  }
  set(value: number, labels?: Labels): void {
    this.at(labels).v = value;
  }
  inc(labels?: Labels, by = 1): void {
    this.at(labels).v += by;
  }
  async refresh(): Promise<void> {
    await this.collect?.(this);
  }
}

/** Observations counted into cumulative buckets (latencies in seconds, sizes). */
export class Histogram extends Labelled<{ counts: number[]; sum: number; n: number }> {
  constructor(name: string, help: string, labelNames: readonly string[], private readonly buckets: readonly number[]) {
    super(name, help, labelNames, 'histogram');
  }
  protected fresh() {
    return { counts: this.buckets.map(() => 0), sum: 0, n: 0 };
  }
  protected lines(values: string[], d: { counts: number[]; sum: number; n: number }) {
    const names = [...this.labelNames, 'le'];
    const out = this.buckets.map((b, i) => `${this.name}_bucket${labelText(names, [...values, num(b)])} ${d.counts[i]}`);
    out.push(`${this.name}_bucket${labelText(names, [...values, '+Inf'])} ${d.n}`);
    out.push(`${this.name}_sum${labelText(this.labelNames, values)} ${num(d.sum)}`, `${this.name}_count${labelText(this.labelNames, values)} ${d.n}`);
    return out;
  }
  observe(value: number, labels?: Labels): void {
    this.observeInto(this.at(labels), value);
  }
  /** observe() on a series kept by the caller (handle()). */
  observeInto(d: { counts: number[]; sum: number; n: number }, value: number): void {
    // Prometheus buckets are cumulative: every bucket whose bound is at or above the value counts it.
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) d.counts[i]!++;
    d.sum += value;
    d.n++;
  }
}

/** The set of metrics one process exposes. */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();

  private add<M extends Metric>(m: M): M {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(m.name)) throw new Error(`bad metric name ${m.name}`);
    if (this.metrics.has(m.name)) throw new Error(`metric ${m.name} is registered twice`);
    this.metrics.set(m.name, m);
    return m;
  }
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames));
  }
  gauge(name: string, help: string, labelNames: readonly string[] = [], collect?: (g: Gauge) => void | Promise<void>): Gauge {
    return this.add(new Gauge(name, help, labelNames, collect));
  }
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, labelNames, [...buckets].sort((a, b) => a - b)));
  }
  /** The exposition text; gauges with a collector are refreshed first (a failing collector keeps its last value). */
  async render(): Promise<string> {
    await Promise.all([...this.metrics.values()].map((m) => (m instanceof Gauge ? m.refresh().catch(() => {}) : undefined)));
    return [...this.metrics.values()].map((m) => m.render()).join('\n') + '\n';
  }
}

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
