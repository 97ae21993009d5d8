/**
 * The queries behind authentication: a caller's role permissions, and the columns and row shape that load a
 * contact's user, permissions and throttle wait in one round trip (used by IdentityStore).
 */
import type { Knex } from 'knex';
import type { Principalish, UserRecord } from './identity-records';

/** The role permissions of a user (anonymous for null) as a query, to run alone or as a subquery. */
export function permissionQuery(db: Knex, userId: number | null): Knex.QueryBuilder {
  const query = db('crm_role_permission')
    .join('crm_role', 'crm_role.id', 'crm_role_permission.role_id')
    .distinct('permission');
  if (userId === null) return query.where('crm_role.name', 'anonymous');
  return query.where((w) =>
    w
      .where('crm_role.name', 'authenticated')
      .orWhereIn('crm_role.id', db('crm_user_role').where('user_id', userId).select('role_id')),
  );
}

/**
 * The user's columns (table alias `u`), its role permissions (the user's roles plus `authenticated`; a
 * contact without a user holds the anonymous role's) and the throttle's wait.
 */
export function principalColumns(db: Knex, wait: Knex.QueryBuilder | null) {
  const permissions =
    db.raw(`(select array_agg(distinct rp.permission) from crm_role_permission rp join crm_role r on r.id = rp.role_id
      where case when u.id is null then r.name = 'anonymous'
                 else r.name = 'authenticated' or r.id in (select ur.role_id from crm_user_role ur where ur.user_id = u.id) end)`);
  return [
    'u.id',
    'u.username',
    'u.is_active',
    'u.password_hash',
    { permissions },
    ...(wait ? [{ wait }] : []),
  ] as const;
}

/** A row selected with {@link principalColumns} as a Principalish; `permissionSet` normalises the names. */
export function principalFromRow(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one wide row from the authentication query
  row: Record<string, any>,
  permissionSet: (names: Iterable<string>) => Set<string>,
): Principalish {
  const user =
    row.id === null || row.id === undefined
      ? null
      : ({
          id: row.id,
          username: row.username,
          is_active: row.is_active,
          password_hash: row.password_hash,
          contact_id: Number(row.contact_id),
        } as UserRecord);
  return {
    contactId: Number(row.contact_id),
    user,
    permissions: permissionSet(row.permissions ?? []),
    wait: Math.max(0, Number(row.wait ?? 0)),
  };
}
