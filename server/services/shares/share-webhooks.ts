import { createHmac } from 'node:crypto';
import type { Logger } from '../../core/log';
import { refusedTarget } from './webhook-target';

/** What a link's webhook is sent (decision 0051). */
export interface WebhookBody {
  event: 'share.upload';
  hash: string;
  name: string;
  files: number;
  bytes: number;
  items: { path: string; size: number }[];
  time: number;
}

export interface WebhookTimings {
  /** Arrivals through one link within this long go in one POST. */
  gatherMs: number;
  timeoutMs: number;
  /** Waits before the 2nd, 3rd and 4th tries. */
  backoffMs: number[];
}

export const WEBHOOK_TIMINGS: WebhookTimings = { gatherMs: 2_000, timeoutMs: 5_000, backoffMs: [2_000, 10_000, 30_000] };
/** POSTs waiting at once (gathering or retrying); beyond it new arrivals are dropped, with a warning. */
const MAX_PENDING = 1_000;
const MAX_ITEMS = 100;

interface Pending {
  url: string;
  secret: string;
  body: WebhookBody;
  tries: number;
  timer: Timer | null;
}

/** The signature header's value: HMAC-SHA256 of the exact body, keyed by the link's secret. */
export const signBody = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Webhook delivery, off every request's path: `arrived` only queues (never awaits the network, never throws), one
 * POST per link per gathering window, tried up to four times with backoff, each with a timeout, redirects not
 * followed, private destinations refused unless allowed (SSRF). `stop` ends timers and requests at once
 * (Background.stop), dropping what was not sent.
 */
export class ShareWebhooks {
  private readonly pending = new Map<string, Pending>();
  private readonly inFlight = new Set<AbortController>();
  private stopped = false;
  private seq = 0;
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly log: Logger, private readonly privateHosts: () => boolean, private readonly t: WebhookTimings = WEBHOOK_TIMINGS) {}

  arrived(link: { hash: string; name: string; url: string; secret: string }, item: { path: string; size: number }): void {
    if (this.stopped || !link.url) return;
    const key = `${link.hash}\0${link.url}`;
    const open = this.pending.get(key);
    if (open && open.tries === 0) {
      open.body.files++;
      open.body.bytes += item.size;
      if (open.body.items.length < MAX_ITEMS) open.body.items.push(item);
      return;
    }
    if (this.pending.size >= MAX_PENDING) {
      this.log.warn(`share webhook: too many pending, one for ${link.hash} dropped`);
      return;
    }
    const p: Pending = {
      url: link.url,
      secret: link.secret,
      body: { event: 'share.upload', hash: link.hash, name: link.name, files: 1, bytes: item.size, items: [item], time: 0 },
      tries: 0,
      timer: null,
    };
    // A batch already being retried keeps its key until it ends; the new one gathers beside it.
    const k = open ? `${key}\0${++this.seq}` : key;
    this.pending.set(k, p);
    this.later(p, this.t.gatherMs, k);
  }

  private later(p: Pending, ms: number, key: string): void {
    p.timer = setTimeout(() => {
      const sending = this.send(p, key).catch((e) => this.log.warn(`share webhook: ${(e as Error).message}`));
      this.sending.add(sending);
      void sending.finally(() => this.sending.delete(sending));
    }, ms);
    p.timer.unref?.();
  }

  private async send(p: Pending, key: string): Promise<void> {
    p.timer = null;
    p.tries++;
    if (this.stopped) return;
    let outcome: string;
    const refused = await refusedTarget(p.url, this.privateHosts()).catch(() => 'the host does not resolve');
    if (refused) {
      this.pending.delete(key);
      this.log.warn(`share webhook for ${p.body.hash} refused: ${refused}`);
      return;
    }
    const ac = new AbortController();
    this.inFlight.add(ac);
    const timer = setTimeout(() => ac.abort(), this.t.timeoutMs);
    try {
      p.body.time = Date.now();
      const text = JSON.stringify(p.body);
      const res = await fetch(p.url, {
        method: 'POST',
        body: text,
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'Filedeck-Webhook', 'X-Filedeck-Signature': signBody(p.secret, text) },
        redirect: 'manual',
        signal: ac.signal,
      });
      await res.body?.cancel().catch(() => {});
      if (res.status >= 200 && res.status < 300) {
        this.pending.delete(key);
        return;
      }
      outcome = `status ${res.status}`;
    } catch (e) {
      outcome = (e as Error).name === 'AbortError' ? 'timed out' : (e as Error).message;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(ac);
    }
    const wait = this.t.backoffMs[p.tries - 1];
    if (this.stopped || wait === undefined) {
      this.pending.delete(key);
      if (!this.stopped) this.log.warn(`share webhook for ${p.body.hash} failed after ${p.tries} tries: ${outcome}`);
      return;
    }
    this.later(p, wait, key);
  }

  /** Ends every timer and request; what was not delivered is dropped (a webhook is a notice, not a ledger). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
    this.pending.clear();
    for (const ac of this.inFlight) ac.abort();
    await Promise.allSettled([...this.sending]); // aborted requests end before stop() returns
  }

  /** Timers and requests alive (the lifecycle test wants none after stop). */
  get active(): number {
    return this.pending.size + this.inFlight.size;
  }
}
