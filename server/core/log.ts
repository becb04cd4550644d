import { appendFileSync } from 'node:fs';

/** Minimal leveled logger. Destinations: "stdout", "stderr", "" (discard) or a file path. Never log secrets. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function createLogger(dest: string): Logger {
  const write = (level: string, msg: string) => {
    const line = `${new Date().toISOString()} ${level} ${msg}\n`;
    if (dest === '') return;
    if (dest === 'stdout') process.stdout.write(line);
    else if (dest === 'stderr') process.stderr.write(line);
    else appendFileSync(dest, line, { mode: 0o600 });
  };
  return {
    info: (m) => write('INFO', m),
    warn: (m) => write('WARN', m),
    error: (m) => write('ERROR', m),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
