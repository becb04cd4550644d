import { proxy, ref } from 'valtio/vanilla';
import { runCommand } from '../api/command';
import { files } from './files.state';
import { pageConfig } from '../api/page-config';

export type ShellLineKind = 'command' | 'output' | 'info' | 'error';
export interface ShellLine {
  id: number;
  kind: ShellLineKind;
  text: string;
  /** 'info'/'error' lines carry a message key and values instead of text. */
  key?: 'exitCode' | 'connectionFailed';
  code?: number;
}

/** At most this many lines are kept; the oldest go first. */
const MAX_LINES = 5000;
const MAX_HISTORY = 100;

interface ShellState {
  open: boolean;
  running: boolean;
  /** Appended in place and kept out of valtio's proxying; `version` tells readers to re-render. */
  lines: ShellLine[];
  version: number;
  history: string[];
}

/** The shell panel (owned by the viewers slice). Other code only calls toggleShell/closeShell. */
export const shellState = proxy<ShellState>({ open: false, running: false, lines: ref([]), version: 0, history: [] });

let nextId = 1;
let stopCurrent: (() => void) | null = null;

export function toggleShell(): void {
  shellState.open = !shellState.open;
}

export function closeShell(): void {
  shellState.open = false;
}

function push(line: Omit<ShellLine, 'id'>): void {
  const lines = shellState.lines;
  lines.push({ id: nextId++, ...line });
  if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
  shellState.version++;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The folder on show, read from the address bar when the command is sent: "/files/a%20b/" → "/a b/". */
export function currentFolder(): string {
  const prefix = `${pageConfig.BaseURL}/files`;
  const path = window.location.pathname;
  const raw = path === prefix || path.startsWith(`${prefix}/`) ? path.slice(prefix.length) || '/' : '/';
  const decoded = raw.split('/').map(decodeSegment).join('/');
  // On a file's page (preview or editor) commands run in the folder holding it.
  const shown = files.resource;
  if (shown && !shown.isDir && files.path === decoded) return decoded.replace(/\/[^/]*$/, '') || '/';
  return decoded;
}

/** Runs a line: the built-ins `clear` and `exit`, or a command on the server in the current folder. */
export function runShellLine(input: string): void {
  const line = input.trim();
  if (!line || shellState.running) return;
  const history = shellState.history;
  if (history[history.length - 1] !== line) history.push(line);
  if (history.length > MAX_HISTORY) history.splice(0, history.length - MAX_HISTORY);
  if (line === 'clear') {
    shellState.lines = ref([]);
    shellState.version++;
    return;
  }
  if (line === 'exit') {
    closeShell();
    return;
  }
  const folder = currentFolder();
  push({ kind: 'command', text: line });
  shellState.running = true;
  stopCurrent = runCommand(folder, line, {
    line: (text) => push({ kind: 'output', text }),
    exit: (code) => {
      if (code !== 0) push({ kind: 'info', text: '', key: 'exitCode', code });
    },
    closed: (code, failed) => {
      const last = shellState.lines[shellState.lines.length - 1];
      if (failed) push({ kind: 'error', text: '', key: 'connectionFailed' });
      else if (code === 1008 && last?.kind === 'output') last.kind = 'error'; // the refusal text
      stopCurrent = null;
      shellState.running = false;
      shellState.version++;
    },
  });
}

/** Stops the running command (closing its socket kills it on the server). */
export function stopShellCommand(): void {
  stopCurrent?.();
}
