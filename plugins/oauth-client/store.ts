/**
 * The `oauthStore` service: OAuth clients, token records in the three storages, refresh under a row
 * lock (single-flight across processes), redaction. Every method takes the database handle to use, so
 * code inside an API call passes `ctx.db`. Authorization states live in states.ts, selectors in
 * selectors.ts, tag → contact linking in contact-link.ts.
 */
import type { Knex } from 'knex';
import type { Logger } from '../../kernel';
import { holds, KernelError, type Principal } from '../../kernel';
import type { CompiledEntity, EntityRegistry } from '../entity-core';
import { type Condition, type EntityStore } from '../entity-core';
import { contactFromTag } from './contact-link';
import { STORAGES, type Storage } from './permissions';
import { unknownProvider, type ProviderRegistry } from './providers';
import { isObj, orderBySort, whereConditions, type Row, type Selector } from './selectors';
import type { OAuthTokens } from './tokens';
import type { ClientRecord, TokenRecord } from './types';

export type { Row, Selector, Where } from './selectors';

/** Principal attribute carrying the SHA-256 of the caller's session id (set by auth-session). */
export const SESSION_ATTR = 'sessionHash';

const JSON_FIELDS = new Set(['options', 'resource_owner', 'error', 'raw']);
const invalid = (message: string, details?: Row) => new KernelError('E_INVALID_PARAMS', message, { details });

export interface OAuthStoreOptions {
  entities: EntityRegistry;
  store: EntityStore;
  tokens: OAuthTokens;
  providers: ProviderRegistry;
  log: Logger;
  /** Origins (or URL prefixes) a landing URL may point at besides the service's own origin. */
  landingAllow: string[];
  publicUrl: string;
  now?: () => number;
}

export interface SaveTokenContext {
  /** The contact a contact token goes to when its tag names none. */
  callerContactId: number | null;
  sessionHash?: string | null;
  /** Explicit contact (skips the tag rules). */
  contactId?: number | null;
  /**
   * Creates a contact from Contact params with chained `api.<Entity>.create` (trusted, the caller's
   * transaction); returns its id.
   */
  createContact(params: Row): Promise<number>;
}

export class OAuthStore {
  constructor(readonly opts: OAuthStoreOptions) {}

  now(): number {
    return this.opts.now ? this.opts.now() : Math.floor(Date.now() / 1000);
  }

  entity(name: string): CompiledEntity {
    return this.opts.entities.get(name);
  }

  /** Rows of an entity with every stored field (secrets included): callers redact. */
  async select(
    db: Knex,
    entityName: string,
    sel: Selector,
    principal: Principal | null,
    extra: Condition[] = [],
  ): Promise<Row[]> {
    const entity = this.entity(entityName);
    const fields = entity.fields.map((f) => f.name);
    const rows = await this.opts.store.select(
      db,
      entity,
      {
        where: [...whereConditions(entity, sel.where), ...extra],
        select: fields,
        sort: orderBySort(sel.orderBy),
        limit: sel.limit,
        offset: sel.offset,
      },
      principal,
    );
    return rows.map((r) => this.decode(r));
  }

  /** JSON columns as objects, `expires` as a number. */
  decode(row: Row): Row {
    const out: Row = { ...row };
    for (const k of Object.keys(out)) {
      if (JSON_FIELDS.has(k) && typeof out[k] === 'string') {
        try {
          out[k] = JSON.parse(out[k] as string);
        } catch {
          /* keep text */
        }
      }
    }
    if (out.expires !== undefined && out.expires !== null) out.expires = Number(out.expires);
    if (typeof out.is_active === 'number') out.is_active = out.is_active === 1;
    return out;
  }

  /** Values for insert/update: JSON columns as JSON text (jsonb accepts it on pg and PGlite). */
  encode(values: Row): Row {
    const out: Row = {};
    for (const [k, v] of Object.entries(values))
      out[k] = JSON_FIELDS.has(k) && v !== null && v !== undefined && typeof v !== 'string' ? JSON.stringify(v) : v;
    return out;
  }

  // ---- clients --------------------------------------------------------------------------------

  async createClient(db: Knex, values: Row): Promise<Row> {
    await this.checkProvider(values.provider);
    if (typeof values.guid !== 'string' || !values.guid)
      throw invalid('OAuthClient: guid (the client id at the provider) is required');
    if (values.options !== undefined && values.options !== null && !isObj(values.options))
      throw invalid('OAuthClient: options must be a JSON object');
    const entity = this.entity('OAuthClient');
    const id = await this.opts.store.insert(db, entity, this.encode({ is_active: true, ...values }));
    return (await this.select(db, 'OAuthClient', { where: [['id', '=', id]] }, null))[0];
  }

  async checkProvider(name: unknown): Promise<void> {
    if (typeof name !== 'string' || !(await this.opts.providers.has(name)))
      throw unknownProvider(
        name,
        (await this.opts.providers.list()).map((p) => p.name),
      );
  }

  /** The one client a grant action's where/orderBy/limit selects (reference §3.1). */
  async locateClient(db: Knex, sel: Selector): Promise<Row> {
    const rows = await this.select(db, 'OAuthClient', { ...sel, limit: sel.limit ?? 2 }, null);
    if (rows.length !== 1) {
      throw new KernelError(
        'E_OAUTH_CLIENT_NOT_FOUND',
        `OAuth: Failed to locate client. Expected 1 client, but found ${rows.length} clients.`,
        { details: { found: rows.length } },
      );
    }
    return rows[0];
  }

  async clientById(db: Knex, id: number): Promise<Row> {
    const rows = await this.select(db, 'OAuthClient', { where: [['id', '=', id]] }, null);
    if (!rows.length)
      throw new KernelError(
        'E_OAUTH_CLIENT_NOT_FOUND',
        `OAuth: Failed to locate client. Expected 1 client, but found 0 clients.`,
        { details: { found: 0 } },
      );
    return rows[0];
  }

  clientRecord(row: Row): ClientRecord {
    return {
      id: Number(row.id),
      provider: String(row.provider),
      guid: String(row.guid),
      secret: (row.secret as string | null) ?? null,
      tenant: (row.tenant as string | null) ?? null,
      options: isObj(row.options) ? row.options : null,
    };
  }

  // ---- tokens ---------------------------------------------------------------------------------

  static checkStorage(storage: unknown): Storage {
    if (!(STORAGES as readonly unknown[]).includes(storage))
      throw invalid(`Invalid token storage (${String(storage)})`, { storage: storage ?? null });
    return storage as Storage;
  }

  /**
   * Stores a fresh token. Contact tokens: `contact_id` from the tag when not given (§6.3):
   * `linkContact:<id>`, `nullContactId`, `createContact` (provider's contactTemplate through APIv3
   * Contact.create in-process), otherwise `callerContactId`. Session tokens need `sessionHash`.
   */
  async saveToken(db: Knex, storage: Storage, record: TokenRecord, ctx: SaveTokenContext): Promise<Row> {
    const values: Row = { ...record } as Row;
    if (storage === 'OAuthContactToken') {
      values.contact_id = ctx.contactId !== undefined ? ctx.contactId : await contactFromTag(this, db, record, ctx);
    }
    if (storage === 'OAuthSessionToken') {
      if (!ctx.sessionHash)
        throw new KernelError(
          'E_OAUTH_NO_SESSION',
          'OAuthSessionToken storage needs a logged-in session (the caller has none)',
        );
      values.session_hash = ctx.sessionHash;
    }
    const entity = this.entity(storage);
    const id = await this.opts.store.insert(db, entity, this.encode(values));
    return this.readToken(db, storage, id);
  }

  async readToken(db: Knex, storage: Storage, id: number): Promise<Row> {
    const rows = await this.select(db, storage, { where: [['id', '=', id]] }, null);
    if (!rows.length) throw new KernelError('E_NOT_FOUND', `${storage} ${id} does not exist`);
    return rows[0];
  }

  /** The rows a principal may see (contact tokens: row rules; session tokens: the caller's session). */
  async selectTokens(
    db: Knex,
    storage: Storage,
    sel: Selector,
    principal: Principal | null,
    trusted = false,
  ): Promise<Row[]> {
    const extra: Condition[] = [];
    // Through the permissioned API, contact tokens without a contact are invisible (reference §6.3).
    if (storage === 'OAuthContactToken' && principal && !trusted) extra.push({ path: 'contact_id', op: 'IS NOT NULL' });
    if (storage === 'OAuthSessionToken' && principal) {
      const hash = principal.attributes?.[SESSION_ATTR];
      extra.push({ path: 'session_hash', op: '=', value: typeof hash === 'string' ? hash : '-' });
    }
    return this.select(db, storage, sel, trusted ? null : principal, extra);
  }

  // ---- redaction ------------------------------------------------------------------------------

  /** Drops secret fields the principal may not see. */
  redact(entityName: string, row: Row, principal: Principal): Row {
    const entity = this.entity(entityName);
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) {
      const f = entity.byName.get(k);
      if (f?.secret && !f.secret.some((p) => holds(p, principal.permissions))) continue;
      out[k] = v;
    }
    return out;
  }

  /** A grant or refresh result (reference §4): the full token for holders of the secret permission, else id, client_id, expires, tag. */
  tokenResult(storage: Storage, row: Row, principal: Principal): Row {
    const secretPerm = this.entity(storage).byName.get('access_token')!.secret!;
    if (secretPerm.some((p) => holds(p, principal.permissions))) return this.redact(storage, row, principal);
    return { id: row.id, client_id: row.client_id, expires: row.expires, tag: row.tag };
  }
}
