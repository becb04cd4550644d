import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { GuestOnly, RedirectUnderFiles, RequireAuth } from './components/layout/guards';
import { ErrorScreen } from './screens/errors/error.screen';
import { FilesScreen } from './screens/files/files.screen';
import { LoginScreen } from './screens/login/login.screen';

/**
 * A screen loaded when first shown: the files and login screens are in the first-load script, the rest (settings,
 * trash, the public share page with its QR code library) come in chunks of their own, so opening a folder parses
 * none of them.
 */
function onDemand<M, K extends keyof M>(load: () => Promise<M>, name: K): ComponentType {
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));
}

const settings = () => import('./screens/settings');
const ProfileScreen = onDemand(settings, 'ProfileScreen');
const SecurityScreen = onDemand(settings, 'SecurityScreen');
const SharesScreen = onDemand(settings, 'SharesScreen');
const AuditScreen = onDemand(settings, 'AuditScreen');
const ApiScreen = onDemand(settings, 'ApiScreen');
const GlobalScreen = onDemand(settings, 'GlobalScreen');
const UserEditScreen = onDemand(settings, 'UserEditScreen');
const UsersScreen = onDemand(settings, 'UsersScreen');
const ShareScreen = onDemand(() => import('./screens/share/share.screen'), 'ShareScreen');
const TrashScreen = onDemand(() => import('./screens/trash/trash.screen'), 'TrashScreen');

/** While a screen's chunk loads: the start-up indicator's look, shown only if the wait is noticeable (base.css). */
const screenLoading = (
  <div className="app-loading app-loading--deferred" aria-busy="true">
    <div className="app-loading__spinner" />
  </div>
);

/**
 * Every route of the app (spec §2). Order matters: patterns also match a trailing slash, so "/files/*" must come
 * before "/files", "/settings/users/new" before "/settings/users/:id", and the catch-all comes last.
 */
export function AppRoutes() {
  return (
    <Suspense fallback={screenLoading}>
      <AppSwitch />
    </Suspense>
  );
}

function AppSwitch() {
  return (
    <Switch>
      <Route path="/login">
        <GuestOnly>
          <LoginScreen />
        </GuestOnly>
      </Route>
      <Route path="/files/*">
        <RequireAuth>
          <FilesScreen />
        </RequireAuth>
      </Route>
      <Route path="/files">
        <Redirect to="/files/" replace />
      </Route>
      <Route path="/trash">
        <RequireAuth>
          <TrashScreen />
        </RequireAuth>
      </Route>
      <Route path="/share/:hash/*" component={ShareScreen} />
      <Route path="/share/:hash" component={ShareScreen} />
      <Route path="/settings/profile">
        <RequireAuth>
          <ProfileScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/security">
        <RequireAuth>
          <SecurityScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/shares">
        <RequireAuth perm="share">
          <SharesScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/audit">
        <RequireAuth perm="admin">
          <AuditScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/api">
        <RequireAuth perm="admin">
          <ApiScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/global">
        <RequireAuth perm="admin">
          <GlobalScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/users/new">
        <RequireAuth perm="admin">
          <UserEditScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/users/:id">
        <RequireAuth perm="admin">
          <UserEditScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings/users">
        <RequireAuth perm="admin">
          <UsersScreen />
        </RequireAuth>
      </Route>
      <Route path="/settings">
        <RequireAuth>
          <Redirect to="/settings/profile" replace />
        </RequireAuth>
      </Route>
      <Route path="/403">
        <ErrorScreen status={403} />
      </Route>
      <Route path="/404">
        <ErrorScreen status={404} />
      </Route>
      <Route path="/500">
        <ErrorScreen status={500} />
      </Route>
      <Route>
        <RedirectUnderFiles />
      </Route>
    </Switch>
  );
}
