// The settings screens, loaded together on demand (web/routes.tsx): one chunk, so moving between settings tabs
// loads nothing more once the first one is open.
export { ApiScreen } from './api.screen';
export { AuditScreen } from './audit.screen';
export { GlobalScreen } from './global.screen';
export { ProfileScreen } from './profile.screen';
export { SecurityScreen } from './security.screen';
export { SharesScreen } from './shares.screen';
export { UserEditScreen } from './user-edit.screen';
export { UsersScreen } from './users.screen';
