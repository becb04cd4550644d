/** One command over WebSocket /api/command on a real loopback server, as our web app reads it. */
export interface CommandRun {
  lines: string[];
  /** From the close code (1000 = 0, 4000+N = N); null for refusals. */
  exit: number | null;
  code: number;
  /** Frames that were not text (the runner must send none). */
  binary: number;
}

/** Authenticates with the `auth` cookie (what our web app does), sends `line`, collects until the close. */
export function runCommandSocket(port: number, path: string, line: string, token: string): Promise<CommandRun> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/command${path}`, { headers: { Cookie: `auth=${token}` } } as never);
    ws.binaryType = 'arraybuffer';
    const out: CommandRun = { lines: [], exit: null, code: 0, binary: 0 };
    ws.onopen = () => ws.send(line);
    ws.onmessage = (e) => {
      if (typeof e.data === 'string') out.lines.push(e.data);
      else out.binary++;
    };
    ws.onclose = (e) => {
      out.code = e.code;
      out.exit = e.code === 1000 ? 0 : e.code >= 4000 && e.code < 5000 ? e.code - 4000 : null;
      // A failure's last line states the status; drop it so `lines` is the command's own output.
      if (out.exit && out.lines[out.lines.length - 1] === `exit status ${out.exit}`) out.lines.pop();
      resolve(out);
    };
  });
}
