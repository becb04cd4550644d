/** Contract: mounted once by the layout when exec is enabled and the user may execute; shows when shellState.open. */
export function ShellPanel() {
  return null;
}
