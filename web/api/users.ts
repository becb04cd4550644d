import type { User, UserField } from '../../server/contract/user';
import { request, requestJson } from './client';

/** The user object sent to the server: a password is only sent when one is set. */
export type UserData = Partial<User> & { createUserDir?: boolean };

/** GET /api/users (admin): everyone. */
export function listUsers(): Promise<User[]> {
  return requestJson<User[]>('/users');
}

/** GET /api/users/{id}: one user (admins: anyone; others: themselves). */
export function getUser(id: number): Promise<User> {
  return requestJson<User>(`/users/${id}`);
}

/**
 * POST /api/users (admin): creates a user and answers its id, read from the Location header
 * ("/settings/users/<id>"). `currentPassword` is the admin's own password.
 */
export async function createUser(data: UserData, currentPassword: string): Promise<number> {
  const res = await request('/users', { method: 'POST', json: { what: 'user', which: [], current_password: currentPassword, data } });
  const id = Number(/(\d+)\/?$/.exec(res.headers.get('Location') ?? '')?.[1]);
  return Number.isFinite(id) ? id : 0;
}

/**
 * PUT /api/users/{id}: changes the fields named in `which` (['all'] = the whole record, admin only).
 * Sensitive fields (password, perm, scope, rules...) need the caller's current password.
 */
export async function updateUser(id: number, which: (UserField | 'all')[], data: UserData, currentPassword?: string): Promise<void> {
  const body: Record<string, unknown> = { what: 'user', which, data: { ...data, id } };
  if (currentPassword !== undefined) body.current_password = currentPassword;
  await request(`/users/${id}`, { method: 'PUT', json: body });
}

/** DELETE /api/users/{id}: needs the caller's current password. */
export async function deleteUser(id: number, currentPassword: string): Promise<void> {
  await request(`/users/${id}`, { method: 'DELETE', json: { current_password: currentPassword } });
}
