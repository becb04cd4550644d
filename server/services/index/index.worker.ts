/**
 * The name index's writer thread (name-index.service.ts starts it): the whole build, reconciles and changed paths
 * run here with synchronous file-system and SQLite calls, so the event loop that answers requests never waits for
 * them. It is the only writer of the index file; jobs run one at a time in order; changed paths arriving during a
 * long job wait in a set (deduplicated) and are applied right after it.
 */
import { NameIndexStore } from '../../db/name-index.store';
import { IndexBuilder } from './index-builder';

declare const self: Worker;

export type IndexJob =
  | { type: 'init'; file: string; root: string; generation: SharedArrayBuffer }
  | { type: 'build' }
  | { type: 'reconcile' }
  | { type: 'sweep'; folders: number; entries: number }
  | { type: 'touch'; paths: string[]; deep: boolean }
  | { type: 'ping'; id: number }
  | { type: 'close' };

export type IndexEvent =
  | { type: 'progress'; done: number }
  | { type: 'state'; state: string }
  | { type: 'pong'; id: number }
  | { type: 'error'; message: string };

let store: NameIndexStore | null = null;
let builder: IndexBuilder | null = null;
const queue: IndexJob[] = [];
const touched = new Map<string, boolean>();
let running = false;
/** Where the next slice of the periodic sweep starts (index path order; '' from the root). */
let swept = '';

const post = (e: IndexEvent) => self.postMessage(e);

async function run(job: IndexJob): Promise<void> {
  if (job.type === 'init') {
    store = new NameIndexStore(job.file);
    store.commits = new Int32Array(job.generation);
    builder = new IndexBuilder(store, job.root, (done) => post({ type: 'progress', done }));
    builder.between = async () => {
      if (touched.size) await applyTouched();
    };
    // A new root, an unfinished build (a crash, a kill) or a new schema: build from nothing. Otherwise catch up
    // with what changed while no server watched (compare folder by folder, write differences only).
    if (store.meta('root') !== job.root || store.meta('state') !== 'ready') await build();
    else {
      post({ type: 'state', state: 'ready' });
      await builder.reconcile('/', true);
    }
  } else if (job.type === 'build') await build();
  else if (job.type === 'reconcile') await builder!.reconcile('/', true);
  else if (job.type === 'sweep') swept = await builder!.sweep(swept, job.folders, job.entries);
  else if (job.type === 'ping') {
    // Answered only once every path changed before it is in the index.
    if (touched.size) await applyTouched();
    post({ type: 'pong', id: job.id });
  }
}

async function build(): Promise<void> {
  post({ type: 'state', state: 'building' });
  await builder!.build();
  post({ type: 'state', state: 'ready' });
}

async function applyTouched(): Promise<void> {
  const paths = [...touched];
  touched.clear();
  for (const [p, deep] of paths) await builder!.apply(p, deep);
}

async function pump(): Promise<void> {
  if (running) return;
  running = true;
  try {
    while (queue.length || (touched.size && builder)) {
      const job = queue.shift();
      try {
        if (job) await run(job);
        if (touched.size && builder) await applyTouched();
      } catch (e) {
        post({ type: 'error', message: (e as Error)?.message ?? String(e) });
      }
    }
  } finally {
    running = false;
  }
}

self.onmessage = (e: MessageEvent<IndexJob>) => {
  const job = e.data;
  if (job.type === 'close') {
    // The server stops: the database is closed here, by its own thread (a terminate alone leaves its files open
    // until the thread is collected), then the thread ends. A build in progress fails on the closed store.
    queue.length = 0;
    touched.clear();
    store?.close();
    store = null;
    process.exit(0); // in a worker, ends this thread only
    return;
  }
  if (job.type === 'touch') for (const p of job.paths) touched.set(p, (touched.get(p) ?? false) || job.deep);
  else if (job.type !== 'sweep' || !queue.some((j) => j.type === 'sweep')) queue.push(job); // one sweep waits at most
  void pump();
};
