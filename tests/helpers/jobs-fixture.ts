import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import type { TestApp } from './test-app';

/** Every `.filedeck-*.part` temp under a folder (what a job must never leave behind). */
export const tempsUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => /^\.filedeck-.*\.part$/.test(e.name)).map((e) => join(e.parentPath, e.name));

/** `n` small files spread over folders of 100 under `dir`; returns their total bytes. */
export function makeTree(dir: string, n: number, size = 64): number {
  const body = Buffer.alloc(size, 97);
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.txt`), body);
  }
  return n * size;
}

/** Starts a job through the API; throws with the body when it is not accepted. */
export async function startJob(t: TestApp, token: string, body: unknown): Promise<Job> {
  const r = await t.req('POST', '/api/jobs', { token, body });
  if (r.status !== 202) throw new Error(`POST /api/jobs: ${r.status} ${await r.text()}`);
  return r.json();
}

/** Polls a job until it has ended (or the time runs out). */
export async function waitJob(t: TestApp, token: string, id: number, ms = 60_000): Promise<Job> {
  const until = Date.now() + ms;
  for (;;) {
    const j: Job = await (await t.req('GET', `/api/jobs/${id}`, { token })).json();
    if (!['queued', 'running'].includes(j.state) || Date.now() > until) return j;
    await Bun.sleep(50);
  }
}

/** Reads server-sent events from a response body, calling `on` for each (event name, parsed data) until it returns true. */
export async function readEvents(res: Response, on: (event: string, data: unknown) => boolean | void): Promise<void> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data && on(event, JSON.parse(data))) return;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
