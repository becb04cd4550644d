/**
 * Folder sizes per caller (issue 15 item 3): listing time of a 1,000-folder directory (12 entries beneath each
 * folder, ~13,000 rows) for callers with no rule, a path rule, hidden dotfiles and a regex rule, against the
 * anchor measured in the same run: the same listing with the name index off (no folder sizes at all).
 * In process, through app.handle (no socket): the figures are the server's own work.
 * Usage: bun scripts/bench/folder-sizes.bench.ts [runs=30]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { makeTestApp } from '../../tests/helpers/test-app';

const RUNS = Number(process.argv[2] ?? 30);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const t = await makeTestApp({ indexPoll: '10m' });
try {
  for (let i = 0; i < 1000; i++) {
    const d = `${t.root}/big/d${String(i).padStart(4, '0')}`;
    mkdirSync(`${d}/inner`, { recursive: true });
    for (let k = 0; k < 5; k++) writeFileSync(`${d}/f${k}.bin`, Buffer.alloc(100 + k));
    for (let k = 0; k < 4; k++) writeFileSync(`${d}/inner/g${k}.tmp`, Buffer.alloc(10));
    writeFileSync(`${d}/.dot`, Buffer.alloc(7));
  }
  const callers = {
    admin: await t.adminToken(),
    'path rule': await t.userToken('p', {}, { rules: [{ allow: false, regex: false, path: '/big/d0500', regexp: null }] }),
    'hidden dotfiles': await t.userToken('h', {}, { hideDotfiles: true }),
    'regex rule': await t.userToken('r', {}, { rules: [{ allow: false, regex: true, path: '', regexp: { raw: '\\.tmp$' } }] }),
  };
  const list = async (token: string) => {
    const t0 = performance.now();
    const r = await t.req('GET', '/api/resources/big', { token });
    const body = (await r.json()) as { items: { folderSize?: number }[] };
    const ms = performance.now() - t0;
    return { ms, sized: body.items.filter((i) => i.folderSize !== undefined).length };
  };
  const measure = async (token: string) => {
    const xs: number[] = [];
    let sized = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await list(token);
      sized = r.sized;
      xs.push(r.ms);
    }
    return `median ${median(xs).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)} ms (${sized} of 1000 folders sized)`;
  };
  console.log(`anchor, index off (no sizes), admin:      ${await measure(callers.admin)}`);
  t.s.index.start();
  while (!t.s.index.ready()) await Bun.sleep(50);
  await t.s.index.settled();
  for (const [name, token] of Object.entries(callers)) console.log(`index on, ${name.padEnd(30)} ${await measure(token)}`);
  console.log(`index on, admin again (drift check):      ${await measure(callers.admin)}`);
} finally {
  await t.close();
}
