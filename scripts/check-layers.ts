/**
 * Fails when an import goes the wrong way between the layers of docs/ARCHITECTURE.md, when a module touches the
 * disk outside server/fs, when http reaches stores or the database, or when modules import each other in a cycle
 * (the rules: scripts/layers/layer-rules.ts). Run by `npm test` (scripts/run-tests.ts) as the "layers" suite.
 * Usage: bun scripts/check-layers.ts
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { checkModules, type ModuleSource } from './layers/layer-rules';

const ROOT = resolve(import.meta.dir, '..');
const SOURCES = ['server', 'cmd', 'web'];

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

const modules: ModuleSource[] = SOURCES.flatMap((d) => files(join(ROOT, d))).map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') }));
const { problems, graph } = checkModules(modules);
for (const p of problems) console.log(`layers: ${p}`);
console.log(`layers: ${graph.size} modules, ${[...graph.values()].reduce((a, d) => a + d.length, 0)} imports checked, ${problems.length} violations`);
process.exit(problems.length ? 1 : 0);
