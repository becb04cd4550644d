import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';

export const NGINX = '/usr/sbin/nginx';
export const nginxAvailable = (): boolean => existsSync(NGINX);

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx in front of the given upstreams on 127.0.0.1: round-robin, no stickiness, request bodies
 * streamed (tus), everything in a temp folder (config, pid, logs, temp files).
 */
/** A port the kernel says is free right now (a random pick can collide with an outgoing connection's port). */
function freePort(): number {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Starts nginx in front of the upstreams; tries a few ports if one is taken between the check and the bind. */
export async function startNginx(upstreams: string[]): Promise<Nginx> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNginxOn(upstreams, freePort());
    } catch (e) {
      if (attempt >= 3 || !/in use/i.test((e as Error).message)) throw e;
    }
  }
}

async function startNginxOn(upstreams: string[], port: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-nginx-'));
  const servers = upstreams.map((u) => `    server ${new URL(u).host};`).join('\n');
  writeFileSync(join(dir, 'nginx.conf'), `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
worker_processes 1;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream filedeck {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 0;
    location / {
      proxy_pass http://filedeck;
      proxy_http_version 1.1;
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`);
  const proc: Subprocess = Bun.spawn([NGINX, '-c', join(dir, 'nginx.conf'), '-p', dir], { stdout: 'ignore', stderr: 'pipe', stdin: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) {
      const why = await new Response(proc.stderr as ReadableStream).text();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx exited: ${why}`);
    }
    try {
      await fetch(`${url}/health`);
      break;
    } catch {
      if (i > 100) throw new Error('nginx did not start');
      await Bun.sleep(50);
    }
  }
  return {
    url,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
