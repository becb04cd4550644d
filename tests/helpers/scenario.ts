import { expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from './test-app';

/** One row of an API scenario table: who calls what, and what must come back. */
export interface Scenario {
  name: string;
  /** 'admin', 'anon', or a username created by setup with USER_PASSWORD. */
  as: string;
  method: string;
  /** A function when the URL depends on what setup created (ids, hashes). */
  url: string | ((t: TestApp) => string | Promise<string>);
  body?: unknown;
  status: number;
  contains?: string | string[];
  excludes?: string | string[];
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
        const res = await t.req(row.method, typeof row.url === 'function' ? await row.url(t) : row.url, { body: row.body, token });
        const text = await res.text();
        expect({ status: res.status, text }).toMatchObject({ status: row.status });
        for (const c of [row.contains ?? []].flat()) expect(text).toContain(c);
        for (const c of [row.excludes ?? []].flat()) expect(text).not.toContain(c);
        await row.after?.(t, res, text);
      } finally {
        await t.close();
      }
    });
  }
}
