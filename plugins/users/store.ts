/**
 * The identity store: users (linked to contacts), roles and their permissions, and API keys.
 * Every method takes the database handle to use, so callers inside an API call pass `ctx.db`.
 * This file holds users and the store's surface; the queries live beside it: principal-rows.ts
 * (authentication's one-round-trip load), roles.ts, api-keys.ts; the records in identity-records.ts.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { contactForApiKey, createApiKey, listApiKeys, revokeApiKeys } from './api-keys';
import { hashPassword, sha256hex } from './crypto';
import type { Aliases, ApiKeyRecord, ContactDirectory, Principalish, UserRecord } from './identity-records';
import { permissionQuery, principalColumns, principalFromRow } from './principal-rows';
import { ensureRole, listRoles, requireRoleId, type RoleSummary } from './roles';

export type { Aliases, ApiKeyRecord, ContactDirectory, Principalish, UserRecord } from './identity-records';

const USERNAME = /^[A-Za-z0-9._@+-]{1,128}$/;

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
    const rows: Array<{ permission: string }> = await permissionQuery(db, userId);
    return this.permissionSet(rows.map((r) => r.permission));
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
      .first('k.contact_id', ...principalColumns(db, wait));
    return row ? principalFromRow(row, (names) => this.permissionSet(names)) : undefined;
  }

  /** As {@link apiKeyPrincipal}, for a contact already identified (a verified JWT); always one row. */
  async contactPrincipal(db: Knex, contactId: number, wait: Knex.QueryBuilder | null): Promise<Principalish> {
    const row = await db
      .select(db.raw('?::int as contact_id', [contactId]), ...principalColumns(db, wait))
      .from(db.raw('(select 1) as one'))
      .leftJoin('crm_user as u', 'u.contact_id', db.raw('?::int', [contactId]))
      .first();
    return principalFromRow(row, (names) => this.permissionSet(names));
  }

  listRoles(db: Knex): Promise<RoleSummary[]> {
    return listRoles(db);
  }

  ensureRole(db: Knex, name: string): Promise<number> {
    return ensureRole(db, name);
  }

  async grantPermissions(db: Knex, role: string, permissions: string[]): Promise<void> {
    const roleId = await ensureRole(db, role);
    const rows = permissions.map((p) => ({ role_id: roleId, permission: this.normalize(p) }));
    if (rows.length) await db('crm_role_permission').insert(rows).onConflict(['role_id', 'permission']).ignore();
    await this.changed(db);
  }

  async revokePermissions(db: Knex, role: string, permissions: string[]): Promise<void> {
    const roleId = await requireRoleId(db, role);
    await db('crm_role_permission')
      .where({ role_id: roleId })
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
    const roleId = await requireRoleId(db, role);
    await db('crm_user_role').insert({ user_id: user.id, role_id: roleId }).onConflict(['user_id', 'role_id']).ignore();
    await this.changed(db);
  }

  async unassignRole(db: Knex, username: string, role: string): Promise<void> {
    const user = await this.requireUser(db, username);
    const roleId = await requireRoleId(db, role);
    await db('crm_user_role').where({ user_id: user.id, role_id: roleId }).delete();
    await this.changed(db);
  }

  // ---- API keys ----------------------------------------------------------------------------

  /** Makes a key for a contact. The key is returned once; only its SHA-256 is stored. */
  createApiKey(db: Knex, contactId: number, label?: string): Promise<{ id: number; key: string; prefix: string }> {
    return createApiKey(db, contactId, label);
  }

  /** The contact owning an active key, found by the key's hash. */
  contactForApiKey(db: Knex, key: string): Promise<number | null> {
    return contactForApiKey(db, key);
  }

  listApiKeys(db: Knex): Promise<ApiKeyRecord[]> {
    return listApiKeys(db);
  }

  /** Revokes by id or by prefix; returns how many keys were revoked. */
  async revokeApiKey(db: Knex, idOrPrefix: string): Promise<number> {
    const revoked = await revokeApiKeys(db, idOrPrefix);
    if (revoked) await this.changed(db);
    return revoked;
  }
}

function checkPassword(password: string): string {
  if (password.length < 8) throw new KernelError('E_INVALID_PARAMS', 'A password needs at least 8 characters');
  if (password.length > 1024) throw new KernelError('E_INVALID_PARAMS', 'A password has at most 1024 characters');
  return password;
}
