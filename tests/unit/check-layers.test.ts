import { describe, expect, test } from 'bun:test';
import { checkModules, type ModuleSource } from '../../scripts/layers/layer-rules';

// Each rule of the layer check catches a violation planted in a small set of modules, and text that only looks
// like an import (in a string or a comment) is not one.
const base: ModuleSource[] = [
  { path: 'server/http/plugins/x.ts', text: 'export const x = 1;' },
  { path: 'server/http/evil.worker.ts', text: 'export {};' },
  { path: 'server/db/users.store.ts', text: 'export class UsersStore {}' },
  { path: 'server/services/a.ts', text: 'export const a = 1;' },
  { path: 'web/components/button.tsx', text: 'export const Button = () => null;' },
  { path: 'web/actions/go.ts', text: 'export const go = 1;' },
];
const problems = (...planted: ModuleSource[]) => checkModules([...base, ...planted]).problems;

describe('layer check: planted violations', () => {
  test('a clean set has none', () => {
    expect(problems()).toEqual([]);
  });

  test('an import after a string that looks like a comment opener is still read', () => {
    const p = problems({ path: 'server/services/b.ts', text: "const route = 'ALL /api/*';\nconst glob = \"/*\";\nimport { x } from '../http/plugins/x';\nexport const b = [route, glob, x];" });
    expect(p).toEqual(['server/services/b.ts -> server/http/plugins/x.ts: services never import http (nor the composition root)']);
  });

  test('require() and dynamic import() are imports', () => {
    expect(problems({ path: 'server/services/c.ts', text: "export const c = require('../http/plugins/x');" })).toHaveLength(1);
    expect(problems({ path: 'server/services/d.ts', text: "export const d = () => import('../http/plugins/x');" })).toHaveLength(1);
  });

  test('a worker entry point is an import', () => {
    const p = problems({ path: 'server/services/e.ts', text: "import { workerSpecifier } from 'somewhere';\nexport const w = new Worker(workerSpecifier('server/http/evil.worker.ts', import.meta.url));" });
    expect(p).toEqual(['server/services/e.ts -> server/http/evil.worker.ts: services never import http (nor the composition root)']);
    expect(problems({ path: 'server/services/f.ts', text: "export const w = new Worker(new URL('../http/evil.worker.ts', import.meta.url));" })).toHaveLength(1);
  });

  test('type-only imports are layer dependencies too', () => {
    const p = problems({ path: 'web/state/g.ts', text: "import type { A } from '../actions/go';\nexport type G = A;" });
    expect(p).toEqual(['web/state/g.ts -> web/actions/go.ts: state never imports actions, components or screens']);
    expect(problems({ path: 'web/state/h.ts', text: "import { type A } from '../actions/go';\nexport type H = A;" })).toHaveLength(1);
  });

  test('disk access outside server/fs: node:fs and Bun.file/Bun.write; a type from node:fs is not', () => {
    expect(problems({ path: 'server/services/i.ts', text: "import { readFileSync } from 'node:fs';\nexport const i = readFileSync;" })).toEqual([
      'server/services/i.ts -> node:fs: disk access only in server/fs (or db, core, cmd for their own files)',
    ]);
    expect(problems({ path: 'server/services/j.ts', text: "import { readFile } from 'fs/promises';\nexport const j = readFile;" })).toHaveLength(1);
    expect(problems({ path: 'server/http/k.ts', text: 'export const k = (p: string) => Bun.file(p);' })).toEqual(['server/http/k.ts: Bun.file/Bun.write: disk access only in server/fs']);
    expect(problems({ path: 'server/services/l.ts', text: "import type { Stats } from 'node:fs';\nexport type L = Stats;" })).toEqual([]);
    expect(problems({ path: 'server/fs/m.ts', text: "import { openSync } from 'node:fs';\nexport const m = [openSync, Bun.file];" })).toEqual([]);
  });

  test('routes never reach stores or the database', () => {
    expect(problems({ path: 'server/http/routes/n.routes.ts', text: 'export const n = (s: any) => s.stores.users.byId(1);' })).toEqual([
      'server/http/routes/n.routes.ts: reaches stores or the database directly: go through a service',
    ]);
    expect(problems({ path: 'server/http/routes/o.routes.ts', text: "import { UsersStore } from '../../db/users.store';\nexport const o = UsersStore;" })).toHaveLength(1);
  });

  test('web/actions sit above state and below components', () => {
    expect(problems({ path: 'web/actions/p.ts', text: "import { Button } from '../components/button';\nexport const p = Button;" })).toEqual([
      'web/actions/p.ts -> web/components/button.tsx: actions sit above state and below components: they never import components or screens',
    ]);
    expect(problems({ path: 'web/state/q.ts', text: "import { go } from '../actions/go';\nexport const q = go;" })).toHaveLength(1);
    expect(problems({ path: 'web/components/r.tsx', text: "import { go } from '../actions/go';\nexport const R = () => go;" })).toEqual([]);
  });

  test('text that only looks like an import is not one', () => {
    const text = "// import { x } from '../http/plugins/x';\n/* require('../http/plugins/x') */\nexport const s = \"import('../http/plugins/x')\";\nexport const t = `from '../http/plugins/x'`;";
    expect(problems({ path: 'server/services/s.ts', text })).toEqual([]);
  });

  test('cycles are found', () => {
    const p = problems({ path: 'server/services/u.ts', text: "import { v } from './v';\nexport const u = v;" }, { path: 'server/services/v.ts', text: "import { u } from './u';\nexport const v = u;" });
    expect(p).toEqual(['import cycle: server/services/u.ts <-> server/services/v.ts']);
  });
});
