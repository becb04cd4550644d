import { Redirect, Route, Switch } from 'wouter';
import { GuestOnly, RedirectUnderFiles, RequireAuth } from './components/layout/guards';
import { ErrorScreen } from './screens/errors/error.screen';
import { FilesScreen } from './screens/files/files.screen';
import { LoginScreen } from './screens/login/login.screen';
import { SettingsPlaceholderScreen } from './screens/settings/settings-placeholder.screen';
import { ShareScreen } from './screens/share/share.screen';

/**
 * Every route of the app (spec §2). Order matters: patterns also match a trailing slash, so "/files/*" must come
 * before "/files", and the catch-all comes last.
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
      <Route path="/share/:hash/*" component={ShareScreen} />
      <Route path="/share/:hash" component={ShareScreen} />
      <Route path="/settings/profile">
        <RequireAuth>
          <SettingsPlaceholderScreen label="profile" />
        </RequireAuth>
      </Route>
      <Route path="/settings/shares">
        <RequireAuth perm="share">
          <SettingsPlaceholderScreen label="shares" />
        </RequireAuth>
      </Route>
      <Route path="/settings/global">
        <RequireAuth perm="admin">
          <SettingsPlaceholderScreen label="global" />
        </RequireAuth>
      </Route>
      <Route path="/settings/users/new">
        <RequireAuth perm="admin">
          <SettingsPlaceholderScreen label="newUser" />
        </RequireAuth>
      </Route>
      <Route path="/settings/users/:id">
        <RequireAuth perm="admin">
          <SettingsPlaceholderScreen label="editUser" />
        </RequireAuth>
      </Route>
      <Route path="/settings/users">
        <RequireAuth perm="admin">
          <SettingsPlaceholderScreen label="users" />
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
