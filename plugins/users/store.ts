/**
 * The identity store: users (linked to contacts), roles and their permissions, and API keys.
 * Every method takes the database handle to use, so callers inside an API call pass `ctx.db`.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { hashPassword, randomToken, sha256hex } from './crypto';

export interface UserRecord {
  id: number;
  username: string;
  password_hash: string | null;
  contact_id: number;
  is_active: boolean;
}

export interface ApiKeyRecord {
  id: number;
  contact_id: number;
  prefix: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const USERNAME = /^[A-Za-z0-9._@+-]{1,128}$/;

/** Permission aliases (`compat-civicrm`: `administer CiviCRM` → `administer CRM`). */
export type Aliases = Readonly<Record<string, string>>;

/** What authenticating needs about a contact, loaded in one round trip. */
export interface Principalish {
  contactId: number;
  user: UserRecord | null;
  permissions: Set<string>;
  /** Seconds the throttle still blocks the caller (0: not blocked). */
  wait: number;
}

/** The contacts users are linked to, reached through the Contact API (never its tables). */
export interface ContactDirectory {
  count(db: Knex, filter: Record<string, unknown>): Promise<number>;
  create(db: Knex, params: Record<string, unknown>): Promise<number>;
}

export class IdentityStore {
  private directory?: ContactDirectory;
  /** Told (with the writing handle) after every change that can alter an authenticated principal. */
  private changed: (db: Knex) => Promise<void> = async () => undefined;

  constructor(private readonly aliases: () => Aliases = () => ({})) {}

  /** Set once the kernel is up (the Contact API needs it). */
  useContacts(directory: ContactDirectory): void {
    this.directory = directory;
  }

  /** Set once the change bus is up: principal caches on every instance are dropped on changes. */
  onPrincipalsChanged(fn: (db: Knex) => Promise<void>): void {
    this.changed = fn;
  }

  private contacts(): ContactDirectory {
    if (!this.directory) throw new KernelError('E_INTERNAL', 'The contact directory is not ready');
    return this.directory;
  }

  // ---- users -------------------------------------------------------------------------------

  findUser(db: Knex, username: string): Promise<UserRecord | undefined> {
    // A NUL byte is in no username (and in no PostgreSQL text): no such user.
    if (username.includes('\0')) return Promise.resolve(undefined);
    return db('crm_user').whereRaw('lower(username) = lower(?)', [username]).first();
  }

  findUserById(db: Knex, id: number): Promise<UserRecord | undefined> {
    return db('crm_user').where({ id }).first();
  }

  findUserByContact(db: Knex, contactId: number): Promise<UserRecord | undefined> {
    return db('crm_user').where({ contact_id: contactId }).first();
  }

  countUsers(db: Knex): Promise<number> {
    return db('crm_user')
      .count<{ n: string }[]>({ n: '*' })
      .then((r) => Number(r[0].n));
  }

  /** Creates a user; without `contactId` a new contact is created for it. */
  async createUser(
    db: Knex,
    input: { username: string; password?: string; contactId?: number; roles?: string[] },
  ): Promise<UserRecord> {
    if (!USERNAME.test(input.username))
      throw new KernelError('E_INVALID_PARAMS', 'A username is 1 to 128 letters, digits or . _ @ + -');
    if (await this.findUser(db, input.username))
      throw new KernelError('E_CONFLICT', `User ${input.username} already exists`);
    if (input.contactId !== undefined && !(await this.contactExists(db, input.contactId))) {
      throw new KernelError('E_NOT_FOUND', `Contact ID ${input.contactId} is invalid`);
    }
    const contactId = input.contactId ?? (await this.createContact(db, input.username));
    if (await this.findUserByContact(db, contactId))
      throw new KernelError('E_CONFLICT', `Contact ${contactId} already has a user`);
    const password_hash = input.password ? await hashPassword(checkPassword(input.password)) : null;
    const [user] = await db('crm_user')
      .insert({ username: input.username, password_hash, contact_id: contactId })
      .returning('*');
    for (const role of input.roles ?? []) await this.assignRole(db, user.username, role);
    await this.changed(db);
    return user;
  }

  async setPassword(db: Knex, username: string, password: string): Promise<void> {
    const user = await this.requireUser(db, username);
    await db('crm_user')
      .where({ id: user.id })
      .update({ password_hash: await hashPassword(checkPassword(password)), updated_at: db.fn.now() });
    // A new password ends the user's sessions.
    await db('crm_session').where({ user_id: user.id }).delete();
    await this.changed(db);
  }

  async setActive(db: Knex, username: string, active: boolean): Promise<void> {
    const user = await this.requireUser(db, username);
    await db('crm_user').where({ id: user.id }).update({ is_active: active, updated_at: db.fn.now() });
    if (!active) await db('crm_session').where({ user_id: user.id }).delete();
    await this.changed(db);
  }

  async listUsers(
    db: Knex,
  ): Promise<Array<{ id: number; username: string; contact_id: number; is_active: boolean; roles: string[] }>> {
    const users = await db('crm_user').select('id', 'username', 'contact_id', 'is_active').orderBy('id');
    const links = await db('crm_user_role')
      .join('crm_role', 'crm_role.id', 'crm_user_role.role_id')
      .select('user_id', 'name')
      .orderBy('name');
    return users.map((u) => ({ ...u, roles: links.filter((l) => l.user_id === u.id).map((l) => l.name) }));
  }

  async requireUser(db: Knex, username: string): Promise<UserRecord> {
    const user = await this.findUser(db, username);
    if (!user) throw new KernelError('E_NOT_FOUND', `No user ${username}`);
    return user;
  }

  // ---- contacts ----------------------------------------------------------------------------

  /** Whether the contact exists (trashed contacts count: they can be restored). */
  async contactExists(db: Knex, contactId: number): Promise<boolean> {
    if (!Number.isSafeInteger(contactId) || contactId <= 0) return false;
    return (await this.contacts().count(db, { id: contactId })) > 0;
  }

  /** A new Individual for a user, made through the Contact API so its name rules apply. */
  async createContact(db: Knex, displayName: string): Promise<number> {
    return this.contacts().create(db, { contact_type: 'Individual', display_name: displayName });
  }

  // ---- roles and permissions ---------------------------------------------------------------

  normalize(permission: string): string {
    return this.aliases()[permission] ?? permission;
  }

  /**
   * The permissions a caller holds: the `anonymous` role without a user; `authenticated` plus the
   * user's roles with one. Aliased names are present under both spellings.
   */
  async permissionsFor(db: Knex, userId: number | null): Promise<Set<string>> {
    const rows: Array<{ permission: string }> = await this.permissionQuery(db, userId);
    return this.permissionSet(rows.map((r) => r.permission));
  }

  /** The role permissions of a user (anonymous for null) as a query, to run alone or as a subquery. */
  private permissionQuery(db: Knex, userId: number | null): Knex.QueryBuilder {
    const q = db('crm_role_permission')
      .join('crm_role', 'crm_role.id', 'crm_role_permission.role_id')
      .distinct('permission');
    if (userId === null) return q.where('crm_role.name', 'anonymous');
    return q.where((w) =>
      w
        .where('crm_role.name', 'authenticated')
        .orWhereIn('crm_role.id', db('crm_user_role').where('user_id', userId).select('role_id')),
    );
  }

  /** Normalised permission names plus the compat aliases of the names held. */
  permissionSet(names: Iterable<string>): Set<string> {
    const set = new Set([...names].map((n) => this.normalize(n)));
    for (const [alias, name] of Object.entries(this.aliases())) if (set.has(name)) set.add(alias);
    return set;
  }

  /**
   * Everything authenticating an API key needs, in one round trip: the key's contact (its foreign
   * key guarantees the contact exists), the contact's user, that user's role permissions, and the
   * throttle's wait for the given subquery. Undefined when no live key has this value.
   */
  async apiKeyPrincipal(db: Knex, key: string, wait: Knex.QueryBuilder | null): Promise<Principalish | undefined> {
    if (!key || key.length > 512) return undefined;
    const row = await db('crm_api_key as k')
      .leftJoin('crm_user as u', 'u.contact_id', 'k.contact_id')
      .where('k.key_hash', sha256hex(key))
      .whereNull('k.revoked_at')
      .first('k.contact_id', ...this.userColumns(db, wait));
    return row ? this.principalish(row) : undefined;
  }

  /** As {@link apiKeyPrincipal}, for a contact already identified (a verified JWT); always one row. */
  async contactPrincipal(db: Knex, contactId: number, wait: Knex.QueryBuilder | null): Promise<Principalish> {
    const row = await db
      .select(db.raw('?::int as contact_id', [contactId]), ...this.userColumns(db, wait))
      .from(db.raw('(select 1) as one'))
      .leftJoin('crm_user as u', 'u.contact_id', db.raw('?::int', [contactId]))
      .first();
    return this.principalish(row);
  }

  /** The user's columns, its role permissions (the user's roles plus `authenticated`; a contact without a user holds the anonymous role's) and the throttle's wait. */
  private userColumns(db: Knex, wait: Knex.QueryBuilder | null) {
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

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one wide row from the authentication query
  private principalish(row: Record<string, any>): Principalish {
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
      permissions: this.permissionSet(row.permissions ?? []),
      wait: Math.max(0, Number(row.wait ?? 0)),
    };
  }

  async listRoles(db: Knex): Promise<Array<{ name: string; label: string; permissions: string[]; users: string[] }>> {
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

  async ensureRole(db: Knex, name: string): Promise<number> {
    if (!/^[a-z0-9_-]{1,64}$/.test(name))
      throw new KernelError('E_INVALID_PARAMS', 'A role name is 1 to 64 lower-case letters, digits, _ or -');
    await db('crm_role').insert({ name, label: name }).onConflict('name').ignore();
    return (await db('crm_role').where({ name }).first('id')).id;
  }

  async grantPermissions(db: Knex, role: string, permissions: string[]): Promise<void> {
    const roleId = await this.ensureRole(db, role);
    const rows = permissions.map((p) => ({ role_id: roleId, permission: this.normalize(p) }));
    if (rows.length) await db('crm_role_permission').insert(rows).onConflict(['role_id', 'permission']).ignore();
    await this.changed(db);
  }

  async revokePermissions(db: Knex, role: string, permissions: string[]): Promise<void> {
    const r = await db('crm_role').where({ name: role }).first('id');
    if (!r) throw new KernelError('E_NOT_FOUND', `No role ${role}`);
    await db('crm_role_permission')
      .where({ role_id: r.id })
      .whereIn(
        'permission',
        permissions.map((p) => this.normalize(p)),
      )
      .delete();
    await this.changed(db);
  }

  async assignRole(db: Knex, username: string, role: string): Promise<void> {
    const user = await this.requireUser(db, username);
    if (role === 'anonymous' || role === 'authenticated')
      throw new KernelError('E_INVALID_PARAMS', `Role ${role} is implied and cannot be assigned`);
    const r = await db('crm_role').where({ name: role }).first('id');
    if (!r) throw new KernelError('E_NOT_FOUND', `No role ${role}`);
    await db('crm_user_role').insert({ user_id: user.id, role_id: r.id }).onConflict(['user_id', 'role_id']).ignore();
    await this.changed(db);
  }

  async unassignRole(db: Knex, username: string, role: string): Promise<void> {
    const user = await this.requireUser(db, username);
    const r = await db('crm_role').where({ name: role }).first('id');
    if (!r) throw new KernelError('E_NOT_FOUND', `No role ${role}`);
    await db('crm_user_role').where({ user_id: user.id, role_id: r.id }).delete();
    await this.changed(db);
  }

  // ---- API keys ----------------------------------------------------------------------------

  /** Makes a key for a contact. The key is returned once; only its SHA-256 is stored. */
  async createApiKey(
    db: Knex,
    contactId: number,
    label?: string,
  ): Promise<{ id: number; key: string; prefix: string }> {
    const key = `crm_${randomToken(24)}`;
    const prefix = key.slice(0, 10);
    const [row] = await db('crm_api_key')
      .insert({ contact_id: contactId, key_hash: sha256hex(key), prefix, label: label ?? null })
      .returning('id');
    return { id: Number(row.id ?? row), key, prefix };
  }

  /** The contact owning an active key, found by the key's hash. */
  async contactForApiKey(db: Knex, key: string): Promise<number | null> {
    if (!key || key.length > 512) return null;
    const row = await db('crm_api_key')
      .where({ key_hash: sha256hex(key) })
      .whereNull('revoked_at')
      .first('contact_id');
    return row ? row.contact_id : null;
  }

  async listApiKeys(db: Knex): Promise<ApiKeyRecord[]> {
    return db('crm_api_key').select('id', 'contact_id', 'prefix', 'label', 'created_at', 'revoked_at').orderBy('id');
  }

  /** Revokes by id or by prefix; returns how many keys were revoked. */
  async revokeApiKey(db: Knex, idOrPrefix: string): Promise<number> {
    const q = db('crm_api_key').whereNull('revoked_at');
    if (/^\d+$/.test(idOrPrefix)) q.where({ id: Number(idOrPrefix) });
    else q.where({ prefix: idOrPrefix });
    const revoked = await q.update({ revoked_at: db.fn.now() });
    if (revoked) await this.changed(db);
    return revoked;
  }
}

function checkPassword(password: string): string {
  if (password.length < 8) throw new KernelError('E_INVALID_PARAMS', 'A password needs at least 8 characters');
  if (password.length > 1024) throw new KernelError('E_INVALID_PARAMS', 'A password has at most 1024 characters');
  return password;
}
