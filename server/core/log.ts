import { appendFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';

/**
 * Minimal leveled logger. Destinations: "stdout", "stderr", "" (discard) or a file path. Never log secrets.
 * Format "text" writes `<time> <LEVEL> <message>`; "json" writes one JSON object a line (for log shippers).
 */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /** A structured line (request logs): JSON in json format, `msg key=value…` in text format. */
  fields?(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>): void;
  /** Resolves when every line written so far has reached its destination (file logs are written in batches). */
  flush?(): Promise<void>;
}

export type LogFormat = 'text' | 'json';

/** Most a file log holds in memory while the disk is slow; lines past it are dropped and counted. */
const MAX_PENDING = 8 * 1024 * 1024;

/** One exit listener for every file log (a listener per logger would pile up in tests). */
const atExit = new Set<() => void>();
process.once('exit', () => {
  for (const f of atExit) f();
});

/**
 * Appends to a file without blocking the event loop: lines are queued and written in batches by one async append
 * at a time (the file is reopened per batch, so log rotation that moves the file needs no signal). Lines still
 * queued when the process exits are written synchronously then.
 */
function fileWriter(path: string): { write(line: string): void; flush(): Promise<void> } {
  let pending: string[] = [];
  let size = 0;
  let dropped = 0;
  let running: Promise<void> | null = null;
  const take = () => {
    if (dropped) pending.push(`${new Date().toISOString()} WARN log: ${dropped} line(s) dropped (disk too slow)\n`);
    const chunk = pending.join('');
    pending = [];
    size = 0;
    dropped = 0;
    return chunk;
  };
  const run = async () => {
    while (pending.length) {
      const chunk = take();
      await appendFile(path, chunk, { mode: 0o600 }).catch((e: Error) => process.stderr.write(`log file ${path}: ${e.message}\n${chunk}`));
    }
    running = null;
  };
  atExit.add(() => {
    if (pending.length) appendFileSync(path, take(), { mode: 0o600 });
  });
  return {
    write(line) {
      if (size + line.length > MAX_PENDING) {
        dropped++;
        return;
      }
      pending.push(line);
      size += line.length;
      running ??= Promise.resolve().then(run);
    },
    flush: async () => {
      while (running) await running;
    },
  };
}

function textFields(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' && /[\s"=]/.test(v) ? JSON.stringify(v) : String(v)}`)
    .join(' ');
}

export function createLogger(dest: string, format: LogFormat = 'text'): Logger {
  if (dest === '') return silentLogger;
  const file = dest === 'stdout' || dest === 'stderr' ? null : fileWriter(dest);
  const out = (line: string) => {
    if (file) file.write(line);
    else if (dest === 'stdout') process.stdout.write(line);
    else process.stderr.write(line);
  };
  const write = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => {
    const time = new Date().toISOString();
    if (format === 'json') out(JSON.stringify({ time, level, msg, ...fields }) + '\n');
    else out(`${time} ${level.toUpperCase()} ${msg}${fields ? ' ' + textFields(fields) : ''}\n`);
  };
  return {
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
    fields: write,
    flush: async () => file?.flush(),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
