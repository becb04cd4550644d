import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../server/core/config';
import { makeTestApp, type TestApp } from './test-app';

/**
 * The one shape of a table-driven API test (issue 33, item 6). A table is `runScenarios(title, setup, rows, options)`:
 * `setup` prepares the app (files, users) and returns named values (tokens, ids, hashes); each row says who calls
 * (`as`), what is sent (`method`, `url`, `body`/`raw`, `headers`), what must come back (`status`, `contains`,
 * `excludes`, `json`, `responseHeaders`) and what the disk must look like after it (`disk`); `before` and `after` hold
 * what a row needs beyond that (a registered upload; a check of a zip's entries). Every row gets a fresh app unless
 * the table is `shared` (one app and one setup for rows that write nothing: faster). A sequence of dependent steps
 * is a flow, not a table: write it as a plain test.
 */

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

/** What `setup` returned: tokens by username, and any other value rows need (ids, hashes). */
export type ScenarioValues = Record<string, string>;

/** One row of an API scenario table: who calls what, what must come back, and what the disk must look like. */
export interface Scenario {
  name: string;
  /**
   * 'admin', 'anon', or a key of what setup returned (a username created with USER_PASSWORD -> its token). A function
   * returns the request headers that authenticate the row (an API token, a cookie, a user created for this row only).
   */
  as: string | ((t: TestApp, v: ScenarioValues) => Record<string, string> | Promise<Record<string, string>>);
  method: string;
  /** A function when the URL depends on what setup created (ids, hashes). */
  url: string | ((t: TestApp, v: ScenarioValues) => string | Promise<string>);
  /** A JSON body; `raw` sends bytes as they are (an upload). */
  body?: unknown;
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Runs after setup and `as`, before the disk snapshot and the request: what this row alone needs in place. */
  before?: (t: TestApp, v: ScenarioValues) => void | Promise<void>;
  status: number;
  contains?: string | string[];
  excludes?: string | string[];
  /** The body parsed as JSON must match this partially (toMatchObject: extra keys allowed, arrays exact). */
  json?: unknown;
  /** Response headers: an exact value, a pattern, or null for a header that must be absent. */
  responseHeaders?: Record<string, string | RegExp | null>;
  /**
   * The disk under this folder of the files root (diskSnapshot): 'same' when the request must change nothing there,
   * or the exact snapshot expected after it.
   */
  disk?: { under: string; after: 'same' | Record<string, string> };
  /** Runs after the response on the same app, for checks of what changed (or did not); `bytes` is the raw body. */
  after?: (t: TestApp, res: Response, text: string, bytes: Uint8Array, v: ScenarioValues) => void | Promise<void>;
}

export interface ScenarioOptions {
  /** Flags and settings for makeTestApp (e.g. a baseURL, global rules). */
  app?: Partial<Record<keyof Config, unknown>>;
  settings?: Record<string, unknown>;
  /**
   * One app and one setup for the whole table, rows in order. Only for rows that write nothing: every row then also
   * checks that the files root is unchanged, so a writing row fails rather than leak into the next.
   */
  shared?: boolean;
  /** Per-row timeout in ms (bun's default otherwise). */
  timeout?: number;
}

/** Sends one row on `t` and checks everything it expects. */
async function play(t: TestApp, values: ScenarioValues, row: Scenario, shared: boolean): Promise<void> {
  const auth = typeof row.as === 'function' ? await row.as(t, values) : {};
  const token = typeof row.as === 'function' || row.as === 'anon' ? undefined : row.as === 'admin' ? await t.adminToken() : values[row.as];
  if (typeof row.as === 'string' && row.as !== 'anon' && !token) throw new Error(`scenario "${row.name}": setup returned no token for "${row.as}"`);
  await row.before?.(t, values);
  const root = shared ? diskSnapshot(t.root) : null;
  const before = row.disk ? diskSnapshot(join(t.root, row.disk.under)) : null;
  const url = typeof row.url === 'function' ? await row.url(t, values) : row.url;
  const res = await t.req(row.method, url, { body: row.body, raw: row.raw, headers: { ...row.headers, ...auth }, token });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  // The body rides along so a wrong status shows what the server said.
  expect({ status: res.status, text }).toMatchObject({ status: row.status });
  for (const c of [row.contains ?? []].flat()) expect(text).toContain(c);
  for (const c of [row.excludes ?? []].flat()) expect(text).not.toContain(c);
  if (row.json !== undefined) expect(JSON.parse(text)).toMatchObject(row.json as object);
  for (const [name, want] of Object.entries(row.responseHeaders ?? {})) {
    const got = res.headers.get(name);
    if (want instanceof RegExp) expect({ [name]: got }).toEqual({ [name]: expect.stringMatching(want) });
    else expect({ [name]: got }).toEqual({ [name]: want });
  }
  if (row.disk) expect(diskSnapshot(join(t.root, row.disk.under))).toEqual(row.disk.after === 'same' ? before! : row.disk.after);
  await row.after?.(t, res, text, bytes, values);
  if (root) expect(diskSnapshot(t.root)).toEqual(root);
}

/** Runs each scenario on a fresh temp root and database prepared by `setup` (or on one shared app: `shared`). */
export function runScenarios(title: string, setup: (t: TestApp) => Promise<ScenarioValues>, rows: Scenario[], options: ScenarioOptions = {}): void {
  const fresh = () => makeTestApp(options.app, options.settings);
  if (options.shared) {
    describe(title, () => {
      let t: TestApp;
      let values: ScenarioValues;
      beforeAll(async () => {
        t = await fresh();
        values = await setup(t);
      });
      afterAll(() => t?.close());
      for (const row of rows) test(row.name, () => play(t, values, row, true), options.timeout);
    });
    return;
  }
  for (const row of rows) {
    test(
      `${title} > ${row.name}`,
      async () => {
        const t = await fresh();
        try {
          await play(t, await setup(t), row, false);
        } finally {
          await t.close();
        }
      },
      options.timeout,
    );
  }
}
