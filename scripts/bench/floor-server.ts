/**
 * The floor of a small-folder listing in this runtime, for listing.bench.ts: a bare Bun.serve on 127.0.0.1 that
 * answers every request either with a fixed JSON body (`hello`: HTTP alone) or with the folder read the plainest
 * way (`listing`: readdirSync, one lstatSync per name, JSON.stringify: no auth, rules, sorting or types). What
 * Filedeck spends above `listing` is its own; what `listing` spends above nginx is the runtime's.
 * Usage: bun scripts/bench/floor-server.ts PORT FOLDER hello|listing
 */
import { lstatSync, readdirSync } from 'node:fs';

const [port, folder, mode] = process.argv.slice(2);
const headers = { 'Content-Type': 'application/json' };
const list = () =>
  JSON.stringify({
    items: readdirSync(folder!).map((name) => {
      const st = lstatSync(`${folder}/${name}`);
      return { name, size: st.size, modified: st.mtime.toISOString(), isDir: st.isDirectory() };
    }),
  });
Bun.serve({
  hostname: '127.0.0.1',
  port: Number(port),
  development: false,
  fetch: mode === 'hello' ? () => new Response('{"items":[]}', { headers }) : () => new Response(list(), { headers }),
});
