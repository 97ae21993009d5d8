/** Role rows: listing roles with their permissions and users, creating a role, finding one by name. */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';

export interface RoleSummary {
  name: string;
  label: string;
  permissions: string[];
  users: string[];
}

export async function listRoles(db: Knex): Promise<RoleSummary[]> {
  const roles = await db('crm_role').select('id', 'name', 'label').orderBy('id');
  const perms = await db('crm_role_permission').select('role_id', 'permission').orderBy('permission');
  const users = await db('crm_user_role')
    .join('crm_user', 'crm_user.id', 'crm_user_role.user_id')
    .select('role_id', 'username')
    .orderBy('username');
  return roles.map((r) => ({
    name: r.name,
    label: r.label,
    permissions: perms.filter((p) => p.role_id === r.id).map((p) => p.permission),
    users: users.filter((u) => u.role_id === r.id).map((u) => u.username),
  }));
}

/** The id of the role `name`, created when missing. */
export async function ensureRole(db: Knex, name: string): Promise<number> {
  if (!/^[a-z0-9_-]{1,64}$/.test(name))
    throw new KernelError('E_INVALID_PARAMS', 'A role name is 1 to 64 lower-case letters, digits, _ or -');
  await db('crm_role').insert({ name, label: name }).onConflict('name').ignore();
  return (await db('crm_role').where({ name }).first('id')).id;
}

/** The id of an existing role; E_NOT_FOUND when there is none. */
export async function requireRoleId(db: Knex, role: string): Promise<number> {
  const row = await db('crm_role').where({ name: role }).first('id');
  if (!row) throw new KernelError('E_NOT_FOUND', `No role ${role}`);
  return row.id;
}
