import { expect, test } from 'bun:test';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from './test-app';

/**
 * What a folder under the files root holds, as the test sees it on disk: relative path -> file content, or '/' for
 * a folder. Hidden and reserved names are included: the snapshot is the disk, not a listing.
 */
export function diskSnapshot(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const dir = join(root, rel);
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(root, path));
    if (st.isDirectory()) {
      out[path] = '/';
      Object.assign(out, diskSnapshot(root, path));
    } else out[path] = st.isSymbolicLink() ? '->' : readFileSync(join(root, path), 'utf8');
  }
  return out;
}

/** One row of an API scenario table: who calls what, what must come back, and what the disk must look like. */
export interface Scenario {
  name: string;
  /** 'admin', 'anon', or a username created by setup with USER_PASSWORD. */
  as: string;
  method: string;
  /** A function when the URL depends on what setup created (ids, hashes). */
  url: string | ((t: TestApp) => string | Promise<string>);
  /** A JSON body; `raw` sends bytes as they are (an upload). */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  status: number;
  contains?: string | string[];
  excludes?: string | string[];
  /**
   * The disk under this folder of the files root (diskSnapshot): 'same' when the request must change nothing there,
   * or the exact snapshot expected after it.
   */
  disk?: { under: string; after: 'same' | Record<string, string> };
  /** Runs after the response on the same app, for checks of what changed (or did not). */
  after?: (t: TestApp, res: Response, text: string) => void | Promise<void>;
}

/** Runs each scenario on a fresh temp root and database prepared by `setup`. */
export function runScenarios(title: string, setup: (t: TestApp) => Promise<Record<string, string>>, rows: Scenario[]): void {
  for (const row of rows) {
    test(`${title} > ${row.name}`, async () => {
      const t = await makeTestApp();
      try {
        const tokens = await setup(t);
        const token = row.as === 'anon' ? undefined : row.as === 'admin' ? await t.adminToken() : tokens[row.as];
        const before = row.disk ? diskSnapshot(join(t.root, row.disk.under)) : null;
        const res = await t.req(row.method, typeof row.url === 'function' ? await row.url(t) : row.url, { body: row.body, raw: row.raw, headers: row.headers, token });
        const text = await res.text();
        expect({ status: res.status, text }).toMatchObject({ status: row.status });
        for (const c of [row.contains ?? []].flat()) expect(text).toContain(c);
        for (const c of [row.excludes ?? []].flat()) expect(text).not.toContain(c);
        if (row.disk) expect(diskSnapshot(join(t.root, row.disk.under))).toEqual(row.disk.after === 'same' ? before! : row.disk.after);
        await row.after?.(t, res, text);
      } finally {
        await t.close();
      }
    });
  }
}
