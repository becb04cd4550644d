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

/** The runner socket URL for a folder (the token goes in the query: browsers cannot set headers on WebSockets). */
function commandUrl(path: string, token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${pageConfig.BaseURL}/api/command${encodePath(path)}?auth=${encodeURIComponent(token)}`;
}

function readExit(data: ArrayBuffer): number | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(data)) as { exit?: unknown };
    return typeof v.exit === 'number' ? v.exit : null;
  } catch {
    return null;
  }
}

/**
 * WebSocket /api/command{path}: one socket per command. The line is sent once the socket opens; text frames are
 * output lines; a binary frame carries {"exit":code}. Returns a function that stops the command (closes the socket).
 */
export function runCommand(path: string, token: string, commandLine: string, on: CommandEvents): () => void {
  const ws = new WebSocket(commandUrl(path, token));
  ws.binaryType = 'arraybuffer';
  let opened = false;
  let finished = false;
  ws.onopen = () => {
    opened = true;
    ws.send(commandLine);
  };
  ws.onmessage = (e: MessageEvent<string | ArrayBuffer>) => {
    if (typeof e.data === 'string') on.line(e.data);
    else {
      const code = readExit(e.data);
      if (code !== null) on.exit(code);
    }
  };
  ws.onclose = (e) => {
    if (finished) return;
    finished = true;
    on.closed(e.code, !opened);
  };
  return () => {
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close(1000);
  };
}
