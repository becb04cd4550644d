import { connect } from 'node:net';

/**
 * HTTP/1.1 over a raw socket, byte for byte: fetch() and every URL parser clean `..`, `%2e%2e` and `\` out of a path
 * before it is sent, which would hide exactly what the attack tests must send.
 */
export interface RawAnswer {
  /** 0: closed without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawHttp(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawAnswer> {
  const u = new URL(base);
  const payload: Buffer = body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body) : body;
  const framed = body === undefined || Object.keys(headers).some((k) => /^(content-length|transfer-encoding)$/i.test(k));
  const head = [`${method} ${path} HTTP/1.1`, `Host: ${u.host}`, 'Connection: close', ...(framed ? [] : [`Content-Length: ${payload.length}`]), ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname);
    const got: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => sock.destroy(new Error(`no answer to ${method} ${path}`)), 30_000);
    sock.on('data', (d: Buffer) => got.push(d));
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(got).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      // status 0: the connection closed without an answer (a server refusing a huge body may reset it mid-upload,
      // and the reset can discard an answer already sent).
      if (!m) return resolve({ status: 0, headers: {}, body: text });
      const end = text.indexOf('\r\n\r\n');
      const hs: Record<string, string> = {};
      for (const line of text.slice(0, end).split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        hs[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers: hs, body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8') });
    };
    sock.on('close', finish);
    sock.on('error', () => {}); // the server may close early on a refused body; what it answered is read at 'close'
    sock.on('connect', async () => {
      sock.write(head);
      // Large bodies go in pieces, stopping when the server has answered and closed.
      for (let o = 0; o < payload.length && !closed && !sock.destroyed; o += 1 << 20) {
        if (!sock.write(payload.subarray(o, o + (1 << 20)))) await new Promise((r) => sock.once('drain', r).once('close', r));
      }
    });
    sock.on('end', () => (closed = true));
  });
}

/** Resident memory of a process in bytes (Linux /proc). */
export async function rssOf(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}
