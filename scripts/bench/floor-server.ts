/**
 * The floor of a small-folder listing in this runtime, for listing.bench.ts: a bare Bun.serve on 127.0.0.1 that
 * answers every request either with a fixed JSON body (`hello`: HTTP alone) or with the folder read the plainest
 * way (`listing`: readdirSync, one lstatSync per name, JSON.stringify: no auth, rules, sorting or types), or with
 * the folder read, ordered and described by Filedeck's own code (`reader`). What Filedeck spends above `reader` is
 * its request pipeline's; what `listing` spends above nginx is the runtime's.
 * Usage: bun scripts/bench/floor-server.ts PORT FOLDER hello|listing|reader
 */
import { lstatSync, readdirSync } from 'node:fs';
import { readFolderAt } from '../../server/fs/folder-read';
import { describe } from '../../server/services/files/describe';
import { nameOrder } from '../../server/services/files/name-order';

const [port, folder, mode] = process.argv.slice(2);
const headers = { 'Content-Type': 'application/json' };
const list = () =>
  JSON.stringify({
    items: readdirSync(folder!).map((name) => {
      const st = lstatSync(`${folder}/${name}`);
      return { name, size: st.size, modified: st.mtime.toISOString(), isDir: st.isDirectory() };
    }),
  });
/**
 * `reader`: the folder as Filedeck reads, orders and describes it (one descriptor: getdents64 and statx, or what
 * fs/folder-cache.ts remembers of it while unchanged; the natural name order; describe()), as one JSON string:
 * without the framework, sessions, rules, types or the request log.
 */
const hiddenNone = () => false;
const read = () => {
  const r = readFolderAt(folder!, 16384, hiddenNone, () => {}, 64, folder)!;
  const order = nameOrder(r.names, r.kinds);
  const items = [];
  for (const i of order) items.push(describe(`/small/${r.names[i]}`, r.names[i]!, r.known[i]!, false));
  const text = `{"items":${JSON.stringify(items)}}`;
  return new Response(text, { headers: { ...headers, 'Content-Length': String(Buffer.byteLength(text)) } });
};
Bun.serve({
  hostname: '127.0.0.1',
  port: Number(port),
  development: false,
  fetch: mode === 'hello' ? () => new Response('{"items":[]}', { headers }) : mode === 'reader' ? read : () => new Response(list(), { headers }),
});
