import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARCHIVE_FORMATS, ARCHIVE_FORMAT_INFO } from '../../server/contract/archive';
import { startServer, type RunningServer } from '../helpers/binary';
import { ADMIN_PASSWORD } from '../helpers/test-app';

// Files that vanish, shrink or turn into FIFOs while an archive of them streams, in every format, through the
// authenticated route and an anonymous share link: the process lives, the archive stays well-formed, and a last
// entry names what could not be archived as it was.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-archive-faults-'));
const root = join(dir, 'files');
let server: RunningServer;
let token: string;
let share: string;

beforeAll(async () => {
  mkdirSync(root, { recursive: true });
  writeFileSync(bigSource, randomBytes(BIG));
  server = await startServer(['-r', root, '-d', join(dir, 'db.db'), '--password', ADMIN_PASSWORD, '--log', 'stderr']);
  token = await (await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })).text();
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Random bytes (compressors cannot shrink them, so the server really waits on the client), far more than socket
// buffers hold.
const BIG = 24 * 1024 * 1024;
const bigSource = join(dir, 'big-source.bin');

/**
 * A fresh folder: a big file, then a folder of small ones. Archives take a selection in the order given (a
 * folder's own entries come in directory order), so the stream is inside the big file when we act.
 */
function fixture(name: string): string {
  const d = join(root, name);
  mkdirSync(join(d, 'z'), { recursive: true });
  copyFileSync(bigSource, join(d, 'a-big.bin'));
  for (const n of ['b-gone.txt', 'c-fifo.txt', 'd-kept.txt']) writeFileSync(join(d, 'z', n), `${n}\n`);
  return d;
}
const SELECTION = encodeURIComponent('/a-big.bin,/z');

/**
 * Reads the response's first bytes, stops reading (so the server, held back by the full socket, is mid-way through
 * the big file), breaks the folder, then reads the rest. HTTP/1.0 over a raw socket: the body is the bytes after
 * the headers, with no chunked framing, and the client really stops reading when paused.
 */
function downloadWhileBreaking(url: string, headers: Record<string, string>, d: string): Promise<Uint8Array> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let broke = false;
    const sock = connect(Number(u.port), u.hostname, () => {
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      sock.write(`GET ${u.pathname}${u.search} HTTP/1.0\r\nHost: ${u.host}\r\n${extra}\r\n`);
    });
    sock.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      if (broke) return;
      broke = true;
      sock.pause();
      setTimeout(() => {
        truncateSync(join(d, 'a-big.bin'), 1000); // shrinks while being read
        unlinkSync(join(d, 'z', 'b-gone.txt'));
        unlinkSync(join(d, 'z', 'c-fifo.txt'));
        spawnSync('mkfifo', [join(d, 'z', 'c-fifo.txt')]); // a FIFO must never be opened (it would block)
        sock.resume();
      }, 200);
    });
    sock.on('error', reject);
    sock.on('end', () => {
      const all = Buffer.concat(parts);
      const at = all.indexOf('\r\n\r\n');
      const status = Number(all.subarray(0, at).toString().split(' ')[1]);
      if (status !== 200) reject(new Error(`status ${status}: ${all.subarray(0, 300)}`));
      else resolve(all.subarray(at + 4));
    });
  });
}

/** Lists an archive with Debian's tools; throws when it is not well-formed. Decompresses to a file (archives are big). */
function list(format: string, file: string): string[] {
  const run = (cmd: string[]) => {
    const p = spawnSync(cmd[0]!, cmd.slice(1), { maxBuffer: 64 * 1024 * 1024 });
    if (p.status !== 0) throw new Error(`${cmd.join(' ')}: ${p.status} ${p.error ?? ''} ${p.stderr}`);
    return p.stdout;
  };
  if (format === 'zip') {
    run(['unzip', '-tq', file]);
    return run(['unzip', '-Z1', file]).toString().split('\n').filter(Boolean);
  }
  if (format === 'tar.sz') return []; // no snappy tool in Debian: the framing is checked in archives.test.ts
  const tool: Record<string, string> = { 'tar.gz': 'gzip', 'tar.bz2': 'bzip2', 'tar.xz': 'xz', 'tar.lz4': 'lz4', 'tar.br': 'brotli', 'tar.zst': 'zstd' };
  let tar = file;
  if (format !== 'tar') {
    tar = `${file}.plain.tar`;
    run(['sh', '-c', `${tool[format]} -dc "$1" > "$2"`, 'sh', file, tar]);
  }
  return run(['tar', '-tf', tar]).toString().split('\n').filter(Boolean);
}

describe('archives survive files breaking mid-stream', () => {
  test.each([...ARCHIVE_FORMATS])('%s, authenticated and through a share link', async (format) => {
    for (const via of ['raw', 'share'] as const) {
      const name = `${format}-${via}`;
      const d = fixture(name);
      let url = `${server.url}/api/raw/${name}?files=${SELECTION}&algo=${format}`;
      let headers: Record<string, string> = { 'X-Auth': token };
      if (via === 'share') {
        share = (await (await fetch(`${server.url}/api/share/${name}/`, { method: 'POST', headers, body: '{}' })).json()).hash;
        url = `${server.url}/api/public/dl/${share}?files=${SELECTION}&algo=${format}`;
        headers = {};
      }
      const body = await downloadWhileBreaking(url, headers, d);
      expect(server.proc.exitCode).toBeNull();
      const file = join(dir, `${name}${ARCHIVE_FORMAT_INFO[format].ext}`);
      writeFileSync(file, body);
      const names = list(format, file);
      if (format !== 'tar.sz') {
        expect(names).toContain('.filedeck-skipped.txt');
        expect(names).toContain('z/d-kept.txt');
        expect(names).not.toContain('z/b-gone.txt');
      }
      // Still serving everyone else.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/raw/${name}/z/d-kept.txt`, { headers: { 'X-Auth': token } })).status).toBe(200);
    }
  }, 60_000);

  test('the note says why, with fixed phrases and no disk paths', async () => {
    const d = fixture('note');
    const body = await downloadWhileBreaking(`${server.url}/api/raw/note?files=${SELECTION}&algo=tar`, { 'X-Auth': token }, d);
    const file = join(dir, 'note.tar');
    writeFileSync(file, body);
    const note = spawnSync('tar', ['-xOf', file, '.filedeck-skipped.txt']).stdout.toString();
    // b-gone.txt vanished before its folder was walked: simply not there, nothing to note.
    expect(note).toContain('z/c-fifo.txt\tnot a regular file');
    expect(note).toContain('a-big.bin\tchanged while archived, padded with zeros');
    expect(note).not.toContain(root);
  }, 30_000);
});
