import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { Redirect, useLocation } from 'wouter';
import type { PermName } from '../../../server/contract/user';
import { auth } from '../../state/auth.state';
import { loginRedirectPath, rawAppPath, safeRedirect } from '../../state/navigation';

/** Protected content: logged-out visitors go to the login page (and come back after); a missing permission gives /403. */
export function RequireAuth({ perm, children }: { perm?: PermName; children: ReactNode }) {
  const { loggedIn, user } = useSnapshot(auth);
  if (!loggedIn) return <Redirect to={loginRedirectPath()} replace />;
  if (perm && !user?.perm[perm]) return <Redirect to="/403" replace />;
  return children;
}

/**
 * The login page for visitors only. A logged-in user (including right after a successful login) goes to the
 * `redirect` query value when it is a path inside the app, otherwise to /files/.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { loggedIn } = useSnapshot(auth);
  if (!loggedIn) return children;
  // Read from the raw query: the router's search string is decodeURI'd, which would corrupt encoded names.
  const target = safeRedirect(new URLSearchParams(window.location.search).get('redirect')) ?? '/files/';
  return <Redirect to={target} replace />;
}

/** Any unknown path is taken to mean a folder path: "/a/b" goes to "/files/a/b". */
export function RedirectUnderFiles() {
  useLocation(); // re-render on navigation
  const raw = rawAppPath();
  return <Redirect to={raw === '/' ? '/files/' : `/files${raw}`} replace />;
}
