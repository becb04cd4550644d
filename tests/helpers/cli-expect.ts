import { expect } from 'bun:test';
import type { CliResult } from './binary';

/** A CLI run that must succeed: nothing on stderr, exit 0, and its stdout parsed as JSON (a `--json` verb). */
export async function cliJson<T>(r: Promise<CliResult>): Promise<T> {
  const out = await r;
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as T;
}

/** Bad input: exit 1, nothing on stdout, exactly one line on stderr naming the problem (`text`). */
export async function cliRefused(r: Promise<CliResult>, text: string): Promise<void> {
  const out = await r;
  expect(out.code).toBe(1);
  expect(out.stdout).toBe('');
  expect(out.stderr.trimEnd().split('\n').length).toBe(1);
  expect(out.stderr).toContain(text);
}
