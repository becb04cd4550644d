import { Redirect, Route, Switch } from 'wouter';
import { GuestOnly, RedirectUnderFiles, RequireAuth } from './components/layout/guards';
import { ErrorScreen } from './screens/errors/error.screen';
import { FilesScreen } from './screens/files/files.screen';
import { LoginScreen } from './screens/login/login.screen';
import { GlobalScreen } from './screens/settings/global.screen';
import { ProfileScreen } from './screens/settings/profile.screen';
import { SharesScreen } from './screens/settings/shares.screen';
import { UserEditScreen } from './screens/settings/user-edit.screen';
import { UsersScreen } from './screens/settings/users.screen';
import { ApiScreen } from './screens/settings/api.screen';
import { AuditScreen } from './screens/settings/audit.screen';
import { ShareScreen } from './screens/share/share.screen';
import { TrashScreen } from './screens/trash/trash.screen';

/**
 * Every route of the app (spec §2). Order matters: patterns also match a trailing slash, so "/files/*" must come
 * before "/files", "/settings/users/new" before "/settings/users/:id", and the catch-all comes last.
 */
export function AppRoutes() {
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
