import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { TestApp } from './test-app';

/** Hex sha256 of bytes. */
export function sha256(data: Uint8Array | string): string {
  return new Bun.CryptoHasher('sha256').update(data).digest('hex');
}

/** Hex sha256 of a file on disk. */
export const sha256File = (path: string) => sha256(readFileSync(path));

/** `n` random bytes (incompressible, so archives and transfers cannot cheat). */
export const random = (n: number) => new Uint8Array(randomBytes(n));

/** Our in-progress upload files (`.filedeck-<random>.part`) in a folder. */
export const partFiles = (dir: string) => readdirSync(dir).filter((n) => /^\.filedeck-.*\.part$/.test(n));

/** Polls `cond` every 25 ms until it is true or `ms` have passed; returns its last value (no timing asserts). */
export async function waitFor(cond: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await cond()) return true;
    if (Date.now() > until) return false;
    await Bun.sleep(25);
  }
}

export interface Live {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts the app on a loopback port (a real HTTP server, real sockets). */
export function listen(t: TestApp): Live {
  const app = t.app.listen({ hostname: '127.0.0.1', port: 0 });
  const server = app.server!;
  return {
    port: server.port!,
    url: `http://127.0.0.1:${server.port}`,
    stop: async () => void (await server.stop(true)),
  };
}

/**
 * Opens a raw TCP connection, writes `head` (the request line and headers, CRLF-terminated, with the blank line)
 * and then `body`, honouring backpressure, then hangs up without sending the rest of what Content-Length
 * promised. Resolves with whatever the server answered once the socket is closed (or after 10 s).
 */
export function sendAndHangUp(port: number, head: string, body: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    let pending: Uint8Array = Buffer.concat([Buffer.from(head, 'latin1'), body]);
    let received = '';
    let ended = false;
    let sock: { end(): void; terminate(): void } | null = null;
    const timer = setTimeout(() => {
      sock?.terminate();
      resolve(received);
    }, 10_000);
    const flush = (s: { write(d: Uint8Array): number; end(): void }) => {
      while (pending.length) {
        const n = s.write(pending);
        if (n <= 0) return; // kernel buffer full: wait for drain
        pending = pending.subarray(n);
      }
      if (!ended) {
        ended = true;
        s.end();
      }
    };
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(s) {
          sock = s;
          flush(s);
        },
        drain(s) {
          flush(s);
        },
        data(_s, d) {
          received += Buffer.from(d).toString('latin1');
        },
        close() {
          clearTimeout(timer);
          resolve(received);
        },
        error(_s, e) {
          clearTimeout(timer);
          reject(e);
        },
      },
    }).catch(reject);
  });
}

/** A raw request head with the given headers. */
export function head(method: string, target: string, headers: Record<string, string | number>): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

export interface Tracked {
  started: number;
  inFlight: number;
  /** 'ok' or the error message of every settled call, in order. */
  outcomes: string[];
  /** Resolves true once at least `n` calls have started and none is running (false after `ms`). */
  idle(n?: number, ms?: number): Promise<boolean>;
  restore(): void;
}

/**
 * Wraps an async method (on an instance or a prototype) to see when the server has really finished with a
 * request: a hung-up client cannot tell, and Bun's pendingRequests drops as soon as the socket closes.
 */
export function track<T extends object>(obj: T, method: keyof T & string): Tracked {
  const original = (obj as Record<string, unknown>)[method] as (...a: unknown[]) => Promise<unknown>;
  const tr: Tracked = {
    started: 0,
    inFlight: 0,
    outcomes: [],
    idle: (n = 1, ms = 8000) => waitFor(() => tr.started >= n && tr.inFlight === 0, ms),
    restore: () => void ((obj as Record<string, unknown>)[method] = original),
  };
  (obj as Record<string, unknown>)[method] = async function (this: unknown, ...args: unknown[]) {
    tr.started++;
    tr.inFlight++;
    try {
      const r = await original.apply(this, args);
      tr.outcomes.push('ok');
      return r;
    } catch (e) {
      tr.outcomes.push((e as Error)?.message ?? String(e));
      throw e;
    } finally {
      tr.inFlight--;
    }
  };
  return tr;
}
