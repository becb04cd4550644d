import { proxy } from 'valtio/vanilla';

/** The shell panel (owned by the viewers slice). Other code only calls toggleShell/closeShell. */
export const shellState = proxy({ open: false });

export function toggleShell(): void {
  shellState.open = !shellState.open;
}

export function closeShell(): void {
  shellState.open = false;
}
