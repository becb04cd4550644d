/**
 * The house's layer rules as data, and the one function that checks a set of modules against them. Imports are
 * read by a real parser (Bun's transpiler: `scanImports` sees import and export statements, dynamic `import()` and
 * `require()`, never text inside strings or comments); worker entry points (`workerSpecifier('…')`, `new Worker(…)`)
 * and direct disk access are read from the transpiled code, which has no comments and no types left.
 * scripts/check-layers.ts runs it on the repository; tests/unit/check-layers.test.ts plants a violation of each rule.
 */
import { dirname, join, normalize } from 'node:path';

/** [importer pattern, what it may not import, why]. Paths are relative to the repository root. */
export const IMPORT_RULES: { from: RegExp; to: RegExp; why: string }[] = [
  { from: /^server\/(core|contract)\//, to: /^(server\/(?!core\/|contract\/)|cmd\/|web\/)/, why: 'core and contract import nothing of ours' },
  { from: /^server\/contract\//, to: /^server\/core\//, why: 'contract is wire types only (shared with web/)' },
  { from: /^server\/db\//, to: /^(server\/(?!core\/|contract\/|db\/)|cmd\/|web\/)/, why: 'db imports only core and contract' },
  { from: /^server\/fs\//, to: /^(server\/(?!core\/|contract\/|fs\/)|cmd\/|web\/)/, why: 'fs imports only core and contract' },
  { from: /^server\/services\//, to: /^(server\/http\/|server\/app\.ts$|cmd\/|web\/)/, why: 'services never import http (nor the composition root)' },
  { from: /^server\/http\/routes\//, to: /^server\/http\/routes\//, why: 'routes never import routes (shared helpers live in server/http/)' },
  { from: /^server\/http\//, to: /^(cmd\/|web\/|server\/app\.ts$|server\/db\/)/, why: 'http imports services and below (never stores), never the composition root or the CLI' },
  { from: /^server\/(?!app\.ts$)/, to: /^cmd\//, why: 'nothing in server imports cmd' },
  { from: /^cmd\//, to: /^server\/http\//, why: 'the CLI goes through server/app.ts, never http' },
  { from: /^web\//, to: /^(server\/(?!contract\/)|cmd\/)/, why: 'web imports from the server only server/contract' },
  { from: /^web\/api\//, to: /^web\/(state|components|screens|actions)\//, why: 'web/api never imports web/state or anything above it' },
  { from: /^web\/state\//, to: /^web\/(components|screens|actions)\//, why: 'state never imports actions, components or screens' },
  { from: /^web\/actions\//, to: /^web\/(components|screens)\//, why: 'actions sit above state and below components: they never import components or screens' },
  { from: /^web\/components\//, to: /^web\/screens\//, why: 'components never import screens' },
];

/** Modules that may touch the disk directly: the fs layer, and state files that are not users' files. */
const DISK_LAYERS = /^(server\/fs\/|server\/db\/|server\/core\/|cmd\/|web\/)/;

/**
 * Services and http that still open files themselves, each for a reason of its own. New code goes through
 * server/fs; this list only shrinks (moving one into server/fs is a refactor that needs no new rule).
 */
export const DISK_EXCEPTIONS: Record<string, string> = {
  'server/http/plugins/static.plugin.ts': 'the web app assets (FILEDECK_WEB_DIR), never a user file',
  'server/http/page-config.ts': 'the index.html template of the web app',
  'server/services/doctor/install-checks.ts': 'inspects the installation (permissions, free space, limits)',
  'server/services/doctor/setup-checks.ts': 'inspects the installation (database, root folder)',
  'server/services/doctor/state-files-check.ts': 'inspects where state files lie relative to the root',
  'server/services/setup/root-identity.ts': 'reads the files root identity (device, inode, marker)',
  'server/services/files/detect-type.ts': 'reads the head of a file the scope already resolved (to move into server/fs)',
  'server/services/files/temp-sweep.ts': 'removes registered temp files (to move into server/fs)',
  'server/services/index/name-index.service.ts': 'the index database in the cache folder',
  'server/services/preview/preview.service.ts': 'the preview cache folder',
  'server/services/preview/tool-thumbs.ts': 'temp output files of external converters',
  'server/services/runner/rule-masks.ts': 'finds rule-denied paths to mask inside the sandbox',
  'server/services/runner/sandbox.ts': 'prepares the sandbox mounts',
  'server/services/work/work.worker.ts': 'the worker thread reads what the main thread resolved (to pass descriptors instead)',
};

const FS_MODULE = /^(node:)?fs(\/promises)?$/;
const BUN_DISK = /\bBun\.(file|write)\s*\(/;
/** `s.stores.x` / `services.db` from a route: stores and the database are reached only through services. */
const STORE_ACCESS = /\b(?:s|services|deps)\s*\.\s*(?:stores|db)\b/;
const WORKER_ENTRY = /\b(?:workerSpecifier\s*\(\s*|new\s+Worker\s*\(\s*(?:new\s+URL\s*\(\s*)?)(["'`])([^"'`]+)\1/g;

export interface ModuleSource {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

export interface LayerReport {
  problems: string[];
  /** Each module's resolved imports (paths relative to the root), for the cycle check. */
  graph: Map<string, string[]>;
}

/**
 * Type-only imports are dependencies between layers too, but the transpiler erases them: they are read as value
 * imports before the scan. The rewrite is textual; inside a string or a comment it changes only text that the scan
 * ignores anyway.
 */
const keepTypeImports = (s: string) =>
  s.replace(/\bimport\s+type\b/g, 'import').replace(/\bexport\s+type\s*\{/g, 'export {').replace(/([{,]\s*)type\s+(?=[A-Za-z_$])/g, '$1');

const transpilers = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) };

/** Resolves a relative specifier against the set of known modules (extension and index forms). */
function resolveSpec(from: string, spec: string, known: Set<string>): string | null {
  if (!spec.startsWith('.')) return null; // packages and bun: modules are not ours
  const base = normalize(join(dirname(from), spec));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (known.has(c)) return c;
  return null;
}

/** Worker entry points name a module by its path from the repository root (worker-url.ts) or relative to the file. */
function resolveWorker(from: string, spec: string, known: Set<string>): string | null {
  if (known.has(spec)) return spec;
  return resolveSpec(from, spec.startsWith('.') ? spec : `./${spec}`, known);
}

/** Checks every module: import rules, disk access, store access from http, then import cycles. */
export function checkModules(modules: ModuleSource[]): LayerReport {
  const known = new Set(modules.map((m) => m.path));
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const m of modules) {
    const text = m.text.replace(/^#!.*/, '');
    let js: string;
    let specs: string[];
    let valueSpecs: string[];
    const transpiler = m.path.endsWith('.tsx') ? transpilers.tsx : transpilers.ts;
    try {
      specs = transpiler.scanImports(keepTypeImports(text)).map((i) => i.path);
      valueSpecs = transpiler.scanImports(text).map((i) => i.path); // what runs: a type from node:fs is no disk access
      js = transpiler.transformSync(text);
    } catch (e) {
      problems.push(`${m.path}: cannot be parsed (${(e as Error).message.split('\n')[0]})`);
      continue;
    }
    const deps: string[] = [];
    const add = (to: string) => {
      deps.push(to);
      for (const r of IMPORT_RULES) if (r.from.test(m.path) && r.to.test(to)) problems.push(`${m.path} -> ${to}: ${r.why}`);
    };
    for (const spec of specs) {
      const to = resolveSpec(m.path, spec, known);
      if (to) add(to);
    }
    for (const spec of valueSpecs)
      if (FS_MODULE.test(spec) && !DISK_LAYERS.test(m.path) && !(m.path in DISK_EXCEPTIONS))
        problems.push(`${m.path} -> ${spec}: disk access only in server/fs (or db, core, cmd for their own files)`);
    for (const w of js.matchAll(WORKER_ENTRY)) {
      const to = resolveWorker(m.path, w[2]!, known);
      if (to) add(to);
      else if (w[2]!.endsWith('.ts')) problems.push(`${m.path}: worker entry ${w[2]} does not exist`);
    }
    if (BUN_DISK.test(js) && !DISK_LAYERS.test(m.path) && !(m.path in DISK_EXCEPTIONS))
      problems.push(`${m.path}: Bun.file/Bun.write: disk access only in server/fs`);
    if (m.path.startsWith('server/http/') && STORE_ACCESS.test(js)) problems.push(`${m.path}: reaches stores or the database directly: go through a service`);
    graph.set(m.path, deps);
  }
  for (const path of Object.keys(DISK_EXCEPTIONS)) if (!known.has(path) && modules.length > 50) problems.push(`${path}: listed in DISK_EXCEPTIONS but gone: remove the entry`);
  problems.push(...cycles(graph));
  return { problems, graph };
}

/** Import cycles: strongly connected components of more than one module (or a module importing itself). */
export function cycles(graph: Map<string, string[]>): string[] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(`import cycle: ${comp.sort().join(' <-> ')}`);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}
