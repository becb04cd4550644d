import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The documents name files and functions so a reader can go straight to them. This test keeps those names true:
// every repository path named in docs/ARCHITECTURE.md, docs/SECURITY.md, docs/security/*.md and docs/decisions/*.md
// must exist, and a function, class, const or method named next to its file (`path/file.ts` `name`, or
// `file.ts:name`) must occur in that file as a whole word.

const ROOT = join(import.meta.dir, '../..');
const TOP = ['server', 'web', 'cmd', 'scripts', 'tests', 'docs', 'locales'];

/** Every file under the top folders, relative to the root (for short names such as `fs/place.ts`). */
function repoFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(ROOT, rel), { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  for (const t of TOP) if (existsSync(join(ROOT, t))) walk(t);
  return out;
}

/** A full repository path in running text: `server/...`, `web/...` and so on (globs and braces end the path). */
const FULL_PATH = /(?<![\w./-])((?:server|web|cmd|scripts|tests|docs|locales)\/[\w.\-/]*[\w])/g;
/** A source file name, with or without folders, as a whole backticked span or before `:name`. */
const FULL_START = /^(?:server|web|cmd|scripts|tests|docs|locales)\//;
const FILE_SPAN = /^((?:[\w.-]+\/)*[\w.-]+\.(?:tsx?|mjs|css|json|md|html))(?::([\w$./]+))?$/;
const IDENT = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;

interface DocProblem {
  doc: string;
  problem: string;
}

/**
 * The problems of one document's text: paths that do not exist and names not found in the file named beside them.
 * `files` are repository paths; `read` returns a file's text.
 */
function checkDoc(doc: string, text: string, files: string[], read: (path: string) => string): DocProblem[] {
  const problems: DocProblem[] = [];
  const fileSet = new Set(files);
  const dirSet = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) dirSet.add(f.slice(0, i));
  const exists = (p: string) => fileSet.has(p) || dirSet.has(p.replace(/\/$/, ''));
  /** A path as written (full, or short like `fs/place.ts` or `place.ts`) to the repository files it may mean. */
  const resolve = (p: string): string[] => (fileSet.has(p) ? [p] : files.filter((f) => f.endsWith(`/${p}`)));

  for (const m of text.matchAll(FULL_PATH)) {
    const p = m[1]!.replace(/\.+$/, '');
    if (!exists(p)) problems.push({ doc, problem: `no such path: ${p}` });
  }

  const spans = [...text.matchAll(/`([^`\n]+)`/g)];
  const checkName = (file: string, candidates: string[], name: string) => {
    for (const part of name.replace(/\(\)$/, '').split(/[./]/).filter(Boolean)) {
      const word = new RegExp(`(?<![\\w$])${part.replace(/\$/g, '\\$')}(?![\\w$])`);
      if (!candidates.some((c) => word.test(read(c)))) problems.push({ doc, problem: `${file}: \`${name}\` not found in ${candidates.join(', ')}` });
    }
  };
  for (let i = 0; i < spans.length; i++) {
    const f = FILE_SPAN.exec(spans[i]![1]!.trim());
    if (!f) continue;
    const file = f[1]!;
    const candidates = resolve(file);
    if (candidates.length === 0) {
      if (!FULL_START.test(file)) problems.push({ doc, problem: `no file named ${file}` });
      continue;
    }
    if (!/\.tsx?$/.test(file)) continue;
    if (f[2]) {
      for (const n of f[2].split('/')) checkName(file, candidates, n);
      continue;
    }
    // `file.ts` `name`, `file.ts`: `a`, `b` / `c`: the names right after the file, separated only by `:`, `,` or `/`.
    let end = spans[i]!.index! + spans[i]![0].length;
    for (let j = i + 1; j < spans.length; j++) {
      const between = text.slice(end, spans[j]!.index!);
      if (!/^\s*[:,/]?\s*$/.test(between) || (j > i + 1 && !/[,/]/.test(between))) break;
      const name = spans[j]![1]!.trim();
      if (!IDENT.test(name) || FILE_SPAN.test(name)) break;
      checkName(file, candidates, name);
      end = spans[j]!.index! + spans[j]![0].length;
    }
  }
  return problems;
}

function docsToCheck(): string[] {
  const out = ['docs/ARCHITECTURE.md', 'docs/SECURITY.md'];
  for (const dir of ['docs/decisions', 'docs/security'])
    if (existsSync(join(ROOT, dir))) for (const f of readdirSync(join(ROOT, dir)).sort()) if (f.endsWith('.md')) out.push(`${dir}/${f}`);
  return out;
}

const cache = new Map<string, string>();
const readRepo = (p: string) => {
  let t = cache.get(p);
  if (t === undefined) cache.set(p, (t = statSync(join(ROOT, p)).isFile() ? readFileSync(join(ROOT, p), 'utf8') : ''));
  return t;
};

describe('docs name only what exists', () => {
  const files = repoFiles();

  test('the checker catches a wrong path and a wrong name (planted)', () => {
    const planted = [
      'See `server/app.ts` `createServices` and `server/app.ts` `noSuchFunctionHere`.',
      'Also `files.service.ts:FilesService.open` and `files.service.ts:FilesService.nope`, and server/no/such-file.ts.',
      'Chains: `server/http/send-file.ts`: `sendFile`, `streamFrom` / `missingToo`.',
    ].join('\n');
    const got = checkDoc('planted', planted, files, readRepo).map((p) => p.problem);
    expect(got).toEqual([
      'no such path: server/no/such-file.ts',
      'server/app.ts: `noSuchFunctionHere` not found in server/app.ts',
      'files.service.ts: `FilesService.nope` not found in server/services/files/files.service.ts',
      'server/http/send-file.ts: `missingToo` not found in server/http/send-file.ts',
    ]);
  });

  for (const doc of docsToCheck())
    test(doc, () => {
      expect(existsSync(join(ROOT, doc))).toBe(true);
      const problems = checkDoc(doc, readFileSync(join(ROOT, doc), 'utf8'), files, readRepo).map((p) => p.problem);
      expect(problems).toEqual([]);
    });
});

describe('the decisions index', () => {
  test('docs/decisions/README.md links every decision file', () => {
    const dir = join(ROOT, 'docs/decisions');
    const index = readFileSync(join(dir, 'README.md'), 'utf8');
    const missing = readdirSync(dir)
      .filter((f) => /^\d{4}-.*\.md$/.test(f))
      .filter((f) => !index.includes(`](${f})`));
    expect(missing).toEqual([]);
  });
});
