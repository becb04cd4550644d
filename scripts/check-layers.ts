/**
 * Fails when an import goes the wrong way between the layers of docs/ARCHITECTURE.md, or when modules import
 * each other in a cycle. Run by `npm test` (scripts/run-tests.ts) as the "layers" suite; prints one line per
 * violation and ends with "N passed, N failed" style counts for the runner.
 * Usage: bun scripts/check-layers.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '..');
const SOURCES = ['server', 'cmd', 'web'];

/** [importer pattern, what it may not import, why]. Paths are relative to the repository root. */
const RULES: { from: RegExp; to: RegExp; except?: RegExp; why: string }[] = [
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
  { from: /^web\/state\//, to: /^web\/(components|screens)\//, why: 'state never imports components or screens' },
  { from: /^web\/components\//, to: /^web\/screens\//, why: 'components never import screens' },
];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.gen.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function resolveImport(fromFile: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null; // packages and bun: modules are not ours
  const base = resolve(dirname(fromFile), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

const all = SOURCES.flatMap((d) => files(join(ROOT, d)));
const graph = new Map<string, string[]>();
const problems: string[] = [];
for (const f of all) {
  const rel = relative(ROOT, f);
  const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const deps: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    const target = resolveImport(f, spec);
    if (!target) continue;
    const to = relative(ROOT, target);
    deps.push(to);
    for (const r of RULES) if (r.from.test(rel) && r.to.test(to) && !(r.except?.test(to))) problems.push(`${rel} -> ${to}: ${r.why}`);
  }
  graph.set(rel, deps);
}

// Cycles: strongly connected components of more than one module (or a module importing itself).
let index = 0;
const idx = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
function strong(v: string): void {
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
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) problems.push(`import cycle: ${comp.sort().join(' <-> ')}`);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) strong(v);

for (const p of problems) console.log(`layers: ${p}`);
console.log(`layers: ${graph.size} modules, ${[...graph.values()].reduce((a, d) => a + d.length, 0)} imports checked, ${problems.length} violations`);
process.exit(problems.length ? 1 : 0);
