import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { shellState } from '../../state/shell.state';
import '../../styles/shell.css';

const ShellBody = lazy(() => import('./shell-body').then((m) => ({ default: m.ShellBody })));

/** Contract: mounted once by the layout when exec is enabled and the user may execute; shows when shellState.open. */
export function ShellPanel() {
  const { open } = useSnapshot(shellState);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ShellBody />
    </Suspense>
  );
}
