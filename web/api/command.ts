import { pageConfig } from './page-config';
import { encodePath } from './resources';

export interface CommandEvents {
  /** One line of output (stdout or stderr), or the server's refusal text. */
  line(text: string): void;
  /** The command ended with this exit code. */
  exit(code: number): void;
  /** The socket closed (always called last, once). `failed` = it never opened. */
  closed(code: number, failed: boolean): void;
}

/**
 * The runner socket URL for a folder. No token in it: URLs end up in proxy logs and browser history. The
 * browser sends the `auth` cookie with the upgrade request, and the server reads it there.
 */
function commandUrl(path: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${pageConfig.BaseURL}/api/command${encodePath(path)}`;
}

const EXIT_LINE = /^exit status (\d+)$/;

/** The exit code a close code states: 1000 = success, 4000+N = exit N; null for anything else. */
function exitFromClose(code: number): number | null {
  if (code === 1000) return 0;
  return code >= 4000 && code <= 4999 ? code - 4000 : null;
}

/**
 * WebSocket /api/command{path}: one socket per command. The line is sent once the socket opens; every frame is
 * a text line. A failed command's last line is `exit status N` and the close code says 4000+N: a line of that
 * shape is held back until the next frame or the close shows whether it was the status or ordinary output.
 * Returns a function that stops the command (closes the socket).
 */
export function runCommand(path: string, commandLine: string, on: CommandEvents): () => void {
  const ws = new WebSocket(commandUrl(path));
  let opened = false;
  let finished = false;
  let held: string | null = null;
  const flush = () => {
    if (held !== null) on.line(held);
    held = null;
  };
  ws.onopen = () => {
    opened = true;
    ws.send(commandLine);
  };
  ws.onmessage = (e: MessageEvent<unknown>) => {
    if (typeof e.data !== 'string') return; // the server sends text only
    flush();
    if (EXIT_LINE.test(e.data)) held = e.data;
    else on.line(e.data);
  };
  ws.onclose = (e) => {
    if (finished) return;
    finished = true;
    const code = exitFromClose(e.code);
    if (held !== null && code !== null && code !== 0 && held === `exit status ${code}`) held = null;
    flush();
    if (code !== null) on.exit(code);
    on.closed(e.code, !opened);
  };
  return () => {
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close(1000);
  };
}
