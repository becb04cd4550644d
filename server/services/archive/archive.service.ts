import { once } from 'node:events';
import { Readable, type Transform } from 'node:stream';
import { basename } from 'node:path';
import { TarArchive, ZipArchive } from 'archiver';
import { forbidden, invalid } from '../../core/errors';
import { baseName, decodeOnce, isWithin, parentOf, toVirtualPath } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { compressor, type Codec } from './compressors';

interface Format {
  ext: string;
  zip?: boolean;
  gzip?: boolean;
  codec?: Codec;
}

const ZIP: Format = { ext: '.zip', zip: true };
const TAR_GZ: Format = { ext: '.tar.gz', gzip: true };
/** The spec's seven names, plus the reference's spellings (targz...) and its zip aliases. */
const FORMATS: Record<string, Format> = {
  '': ZIP, zip: ZIP, true: ZIP,
  tar: { ext: '.tar' },
  'tar.gz': TAR_GZ, targz: TAR_GZ,
  'tar.bz2': { ext: '.tar.bz2', codec: 'bz2' }, tarbz2: { ext: '.tar.bz2', codec: 'bz2' },
  'tar.xz': { ext: '.tar.xz', codec: 'xz' }, tarxz: { ext: '.tar.xz', codec: 'xz' },
  'tar.lz4': { ext: '.tar.lz4', codec: 'lz4' }, tarlz4: { ext: '.tar.lz4', codec: 'lz4' },
  'tar.sz': { ext: '.tar.sz', codec: 'sz' }, tarsz: { ext: '.tar.sz', codec: 'sz' },
};

export function archiveFormat(algo: string | null): Format {
  const f = FORMATS[(algo ?? '').toLowerCase()];
  if (!f) throw invalid(`unknown archive format "${algo}"; use zip, tar, tar.gz, tar.bz2, tar.xz, tar.lz4 or tar.sz`);
  return f;
}

/** The requested items: the request path itself, or the `files` list (each decoded once more, joined under it). */
export function archiveTargets(base: string, files: string | null): string[] {
  if (files === null || files === '') return [base];
  const out = files.split(',').filter(Boolean).map((f) => {
    const p = toVirtualPath(decodeOnce(f)).path;
    return base === '/' ? p : base + p;
  });
  if (!out.length) throw invalid('no files given');
  return [...new Set(out)];
}

function commonParent(paths: string[]): string {
  let common = parentOf(paths[0]!);
  for (const p of paths) while (common !== '/' && (!isWithin(p, common) || p === common)) common = parentOf(common);
  return common;
}

/** Archive entry names: relative, "/"-separated, backslashes replaced so no extractor reads them as folders. */
const entryName = (rel: string) => rel.split('/').map((s) => s.replaceAll('\\', '_')).join('/');

/**
 * Streams an archive of files and folders. Nothing is buffered beyond one compression block: entries are fed
 * to archiver as the walk finds them, with backpressure on its queue. Entries the actor may not see (rules,
 * dotfiles) are skipped; symlinks leaving the scope are never followed.
 */
export async function createArchive(actor: Actor, targets: string[], algo: string | null, signal?: AbortSignal): Promise<{ name: string; stream: ReadableStream<Uint8Array> }> {
  const format = archiveFormat(algo);
  const items: { path: string; real: string; isDir: boolean; stats: import('node:fs').Stats }[] = [];
  for (const t of targets) {
    if (!actor.allows(t)) throw forbidden();
    const { real, stats } = await actor.fs.stat(t);
    items.push({ path: t, real, isDir: stats.isDirectory(), stats });
  }
  const single = items.length === 1 && items[0]!.isDir;
  const root = single ? items[0]!.path : commonParent(items.map((i) => i.path));
  let name = baseName(root) || (root === '/' ? basename(actor.fs.realRoot) : '') || 'archive';
  if (targets.length > 1) name = `_${name}`;
  const arch = format.zip ? new ZipArchive({ store: true }) : new TarArchive(format.gzip ? { gzip: true, gzipOptions: { level: 6 } } : {});
  // archiver 8's tar plugin unpipes its engine on abort, but tar-stream 3's pack has no unpipe: that threw outside
  // any handler when a client hung up and took the whole process down. A no-op is all the engine needs.
  const engine = (arch as unknown as { _module?: { engine?: { unpipe?: () => void } } })._module?.engine;
  if (engine && typeof engine.unpipe !== 'function') engine.unpipe = () => {};
  const out: Transform | typeof arch = format.codec ? arch.pipe(await compressor(format.codec)) : arch;
  const rel = (p: string) => entryName(root === '/' ? p.slice(1) : p.slice(root.length + 1));
  const queue = (arch as unknown as { _queue: { length(): number } })._queue;

  const feed = async () => {
    const add = async (path: string, real: string, isDir: boolean, stats?: import('node:fs').Stats) => {
      while (queue.length() > 64 && !signal?.aborted) await once(arch, 'entry');
      if (isDir) arch.append(Buffer.alloc(0), { name: `${rel(path)}/`, type: 'directory', date: stats?.mtime });
      else arch.file(real, { name: rel(path) });
    };
    for (const item of items) {
      if (item.path !== root) await add(item.path, item.real, item.isDir, item.stats);
      if (!item.isDir) continue;
      for await (const e of actor.fs.walk(item.path, (d) => actor.allows(d.path), signal)) {
        if (signal?.aborted) return;
        if (actor.allows(e.path)) await add(e.path, e.real, e.isDir);
      }
    }
    await arch.finalize();
  };
  arch.on('warning', () => {}); // an unreadable entry is skipped, not fatal
  feed().catch((e) => arch.destroy(e));
  return { name: name + format.ext, stream: toWebStream(out as Readable, () => arch.abort(), signal) };
}

/**
 * The archive as a web stream with backpressure. A hang-up never destroys the node streams mid-entry (archiver
 * and tar-stream then throw outside any handler, which took the process down): archiver is aborted, which stops
 * new entries and ends the archive after the one in flight, and what is still produced is drained and dropped.
 */
function toWebStream(out: Readable, abort: () => void, signal?: AbortSignal): ReadableStream<Uint8Array> {
  let done = false;
  let ctrl: ReadableStreamDefaultController<Uint8Array>;
  const stop = () => {
    if (done) return;
    done = true;
    out.removeAllListeners('data');
    out.on('data', () => {});
    out.resume();
    abort();
  };
  out.on('error', () => {
    if (!done) ctrl.error(new Error('archive failed'));
    done = true;
  });
  signal?.addEventListener('abort', stop);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        ctrl = c;
        out.on('data', (chunk: Buffer) => {
          if (done) return;
          c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((c.desiredSize ?? 0) <= 0) out.pause();
        });
        out.on('end', () => {
          if (!done) c.close();
          done = true;
        });
      },
      pull() {
        out.resume();
      },
      cancel: stop,
    },
    { highWaterMark: 8 },
  );
}
