/**
 * The `oauthStore` service: OAuth clients, token records in the three storages, authorization states,
 * refresh under a row lock (single-flight across processes), tag → contact linking. Every method takes
 * the database handle to use, so code inside an API call passes `ctx.db`.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { Logger } from '../../kernel';
import { holds, isKernelError, KernelError, type Cradle, type Principal } from '../../kernel';
import type { CompiledEntity, EntityRegistry, EntityService } from '../entity-core';
import { OPERATORS, type Condition, type EntityStore, type Filter } from '../entity-core';
import { P, STORAGES, type Storage } from './permissions';
import type { ProviderRegistry } from './providers';
import { evaluateContactTemplate } from './templates';
import type { OAuthTokens } from './tokens';
import type { ClientRecord, TokenRecord } from './types';

/** Principal attribute carrying the SHA-256 of the caller's session id (set by auth-session). */
export const SESSION_ATTR = 'sessionHash';

export type Row = Record<string, unknown>;
export type Where = unknown[];

export interface Selector {
  where?: Where;
  orderBy?: Record<string, string>;
  limit?: number;
  offset?: number;
}

const JSON_FIELDS = new Set(['options', 'resource_owner', 'error', 'raw']);
const isObj = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `CC_` + 29 random letters and digits (the reference's state id format). */
export function newStateId(): string {
  let s = 'CC_';
  for (let i = 0; i < 29; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export function sameHash(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const invalid = (message: string, details?: Row) => new KernelError('E_INVALID_PARAMS', message, { details });

/** Trusted principal for internal reads and writes (row access not applied). */
const trusted = (p?: Principal): Principal => ({
  contactId: p?.contactId ?? null,
  userId: p?.userId ?? null,
  via: 'system',
  permissions: new Set(['*']),
  attributes: {},
});

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
  /** Creates a contact from Contact params with chained `api.<Entity>.create` (trusted, the caller's transaction); returns its id. */
  createContact(params: Row): Promise<number>;
}

/**
 * `createContact` through the entity service (trusted, the caller's transaction): the Contact from the params,
 * then each chained `api.<Entity>.create` (the template's Email, Phone…) with the new contact's id.
 */
export function contactCreator(scope: AwilixContainer<Cradle>, db: Knex): (params: Row) => Promise<number> {
  return async (params) => {
    const entities = (scope.cradle.entityService as EntityService).bind({ db, principal: trusted(), trusted: true });
    const values: Row = {};
    const chained: Array<[string, Row]> = [];
    for (const [key, value] of Object.entries(params)) {
      const chain = /^api\.([A-Za-z]+)\.create$/i.exec(key);
      if (!chain) values[key] = value;
      else if (isObj(value)) chained.push([chain[1], value]);
    }
    const contactId = Number((await entities.save('Contact', values)).id);
    for (const [entity, chainValues] of chained) await entities.save(entity, { ...chainValues, contact_id: contactId });
    return contactId;
  };
}

export interface StateData {
  clientId: number;
  storage: Storage;
  tag: string | null;
  scopes: string[];
  landingUrl: string | null;
  codeVerifier: string;
  redirectUri: string;
  providerUrl: string;
  /** Contact of the initiator (the "caller's contact" when the browser returns without a session). */
  contactId: number | null;
}

export class OAuthStore {
  constructor(readonly opts: OAuthStoreOptions) {}

  now(): number {
    return this.opts.now ? this.opts.now() : Math.floor(Date.now() / 1000);
  }

  entity(name: string): CompiledEntity {
    return this.opts.entities.get(name);
  }

  // ---- APIv4-style selectors ------------------------------------------------------------------

  /** `[[field, op, value], ['OR', [...]]]` → store conditions; fields and operators from metadata only. */
  conditions(entity: CompiledEntity, where: Where | undefined): Condition[] {
    if (where === undefined || where === null) return [];
    if (!Array.isArray(where)) throw invalid('where must be an array of [field, operator, value] clauses');
    return where.map((clause) => this.clause(entity, clause));
  }

  private clause(entity: CompiledEntity, clause: unknown): Condition {
    if (!Array.isArray(clause) || typeof clause[0] !== 'string')
      throw invalid('Each where clause is [field, operator, value]');
    if (clause[0] === 'OR' && Array.isArray(clause[1])) {
      return {
        or: clause[1].map((c) => {
          const r = this.clause(entity, c);
          if ('or' in r) throw invalid('Nested OR is not supported here');
          return r;
        }),
      };
    }
    const [path, rawOp, value] = clause as [string, unknown, unknown];
    const op = String(rawOp ?? '=').toUpperCase();
    if (op === 'CONTAINS') {
      const f = entity.lookup.get(path);
      if (!f?.serialize) throw invalid(`CONTAINS needs a multi-valued field; ${path} is not one`);
      return { path, op: '=', value };
    }
    if (!(OPERATORS as readonly string[]).includes(op)) throw invalid(`Illegal operator ${String(rawOp)}`);
    if ((op === 'IN' || op === 'NOT IN') && !Array.isArray(value)) throw invalid(`${op} needs an array`);
    return { path, op: op as Filter['op'], value };
  }

  private sort(orderBy: Selector['orderBy']): Array<{ path: string; dir: 'ASC' | 'DESC' }> {
    if (!orderBy) return [];
    if (!isObj(orderBy)) throw invalid('orderBy must be an object {field: "ASC"|"DESC"}');
    return Object.entries(orderBy).map(([path, d]) => {
      const dir = String(d).toUpperCase();
      if (dir !== 'ASC' && dir !== 'DESC') throw invalid(`orderBy direction must be ASC or DESC, not ${String(d)}`);
      return { path, dir };
    });
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
        where: [...this.conditions(entity, sel.where), ...extra],
        select: fields,
        sort: this.sort(sel.orderBy),
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
  private encode(values: Row): Row {
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
    if (typeof name !== 'string' || !(await this.opts.providers.has(name))) {
      throw new KernelError(
        'E_OAUTH_PROVIDER_UNKNOWN',
        `Invalid provider name: ${typeof name === 'string' ? name : JSON.stringify(name ?? null)}`,
        { details: { provider: name ?? null } },
      );
    }
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
      values.contact_id = ctx.contactId !== undefined ? ctx.contactId : await this.contactFromTag(db, record, ctx);
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

  async contactFromTag(
    db: Knex,
    record: { tag?: unknown; client_id?: unknown },
    ctx: Pick<SaveTokenContext, 'callerContactId' | 'createContact'>,
  ): Promise<number | null> {
    const tag = typeof record.tag === 'string' ? record.tag : '';
    const link = /^linkContact:(\d+)$/.exec(tag);
    if (link) {
      const id = Number(link[1]);
      const exists = await db('crm_contact').where({ id }).first('id');
      if (!exists) throw invalid(`linkContact: contact ${id} does not exist`);
      return id;
    }
    if (tag === 'nullContactId') return null;
    if (tag === 'createContact') {
      const client = record.client_id ? await this.clientById(db, Number(record.client_id)) : null;
      const provider = client ? await this.opts.providers.get(String(client.provider)) : null;
      if (!provider?.contactTemplate)
        throw invalid(`createContact: provider ${provider?.name ?? '(none)'} has no contactTemplate`);
      const { secret: _s, ...publicClient } = client ?? {};
      const params = contactCreateParams(
        evaluateContactTemplate(provider.contactTemplate, { token: record, client: publicClient, provider }),
      );
      return ctx.createContact(params);
    }
    return ctx.callerContactId;
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

  /**
   * Refreshes one token under a row lock: `SELECT … FOR UPDATE`, then the freshness check again
   * (another caller or instance may have refreshed it while we waited), then at most one provider
   * call; the result (or the provider's error) is written before the lock is released.
   */
  async refreshOne(
    db: Knex,
    storage: Storage,
    id: number,
    threshold?: number,
  ): Promise<{ row: Row; refreshed: boolean; error?: KernelError }> {
    const entity = this.entity(storage);
    return db.transaction(async (trx) => {
      const locked = await trx(entity.table).where('id', id).forUpdate().first('id');
      if (!locked) throw new KernelError('E_NOT_FOUND', `${storage} ${id} does not exist`);
      const row = await this.readToken(trx, storage, id);
      if (!this.opts.tokens.needsRefresh({ expires: row.expires as number | null }, threshold))
        return { row, refreshed: false };
      if (!row.client_id) throw new KernelError('E_OAUTH_CLIENT_NOT_FOUND', `${storage} ${id} has no client`);
      const client = this.clientRecord(await this.clientById(trx, Number(row.client_id)));
      try {
        const next = await this.opts.tokens.refresh({ client, token: row as Partial<TokenRecord> });
        const values = {
          access_token: next.access_token,
          refresh_token: next.refresh_token,
          token_type: next.token_type,
          expires: next.expires,
          raw: next.raw,
          error: null,
          modified_date: trx.fn.now(),
        };
        await trx(entity.table).where('id', id).update(this.encode(values));
        return { row: await this.readToken(trx, storage, id), refreshed: true };
      } catch (err) {
        if (!isKernelError(err) || err.code === 'E_OAUTH_NO_REFRESH_TOKEN' || err.code === 'E_OAUTH_CLIENT_NOT_FOUND')
          throw err;
        const d = (err.details ?? {}) as Row;
        const error = {
          error: String(d.error ?? (err.code === 'E_OAUTH_UNREACHABLE' ? 'unreachable' : err.code)),
          error_description: String(d.error_description ?? err.message),
          time: this.now(),
        };
        await trx(entity.table)
          .where('id', id)
          .update(this.encode({ error, modified_date: trx.fn.now() }));
        this.opts.log.warn({ storage, id, error: error.error }, 'OAuth token refresh failed; recorded on the token');
        return { row: await this.readToken(trx, storage, id), refreshed: false, error: err };
      }
    });
  }

  // ---- authorization states ---------------------------------------------------------------------

  async createState(
    db: Knex,
    id: string,
    data: StateData,
    binding: { sessionHash: string | null },
    ttl: number,
  ): Promise<string> {
    await db('crm_oauth_state').insert({
      id,
      session_hash: binding.sessionHash,
      cookie_hash: null,
      data: JSON.stringify(data),
      expires_at: db.raw('now() + make_interval(secs => ?)', [ttl]),
    });
    // Housekeeping: expired states go as new ones come.
    await db('crm_oauth_state').where('expires_at', '<', db.fn.now()).delete();
    return id;
  }

  /**
   * An unbound (sessionless) state is claimed by the first browser opening its start link: that
   * browser gets a random cookie, the state keeps its hash. Returns the cookie value and provider URL.
   */
  async claimState(db: Knex, id: string): Promise<{ cookie: string; providerUrl: string }> {
    if (!/^CC_[A-Za-z0-9]{1,60}$/.test(id)) throw stateError();
    return db.transaction(async (trx) => {
      const row = await trx('crm_oauth_state')
        .where({ id })
        .andWhere('expires_at', '>', trx.fn.now())
        .forUpdate()
        .first();
      if (!row || row.session_hash || row.cookie_hash) throw stateError();
      const cookie = randomBytes(24).toString('base64url');
      await trx('crm_oauth_state')
        .where({ id })
        .update({ cookie_hash: sha256(cookie) });
      const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as StateData;
      return { cookie, providerUrl: data.providerUrl };
    });
  }

  /** Loads and deletes a state (single use). Unknown, expired, or bound to another session/browser → error. */
  async consumeState(
    db: Knex,
    id: unknown,
    binding: { sessionHash: string | null; cookie: string | null },
  ): Promise<StateData> {
    if (typeof id !== 'string' || !/^CC_[A-Za-z0-9]{1,60}$/.test(id)) throw stateError();
    const data = await db.transaction(async (trx) => {
      const row = await trx('crm_oauth_state')
        .where({ id })
        .forUpdate()
        .first(['*', trx.raw('expires_at > now() as live')]);
      if (!row) return null;
      if (!row.live) {
        // Expired: gone for good (committed), then refused.
        await trx('crm_oauth_state').where({ id }).delete();
        return null;
      }
      const ok = row.session_hash
        ? sameHash(row.session_hash, binding.sessionHash)
        : row.cookie_hash
          ? sameHash(row.cookie_hash, binding.cookie ? sha256(binding.cookie) : null)
          : false;
      // Another session or browser: refused, and the state stays for its owner.
      if (!ok) return null;
      await trx('crm_oauth_state').where({ id }).delete();
      return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as StateData;
    });
    if (!data) throw stateError();
    return data;
  }

  // ---- landing URLs ---------------------------------------------------------------------------

  /** A landing URL on the service's own origin or an allowed prefix, as an absolute URL; else an error (no open redirect). */
  landingUrl(raw: unknown): string | null {
    if (raw === undefined || raw === null || raw === '') return null;
    const refuse = () =>
      new KernelError('E_OAUTH_LANDING', 'Cannot initiate OAuth. Unsupported landing URL.', {
        details: { landingUrl: String(raw).slice(0, 200) },
      });
    if (typeof raw !== 'string' || /[\s\\]/.test(raw) || raw.startsWith('//')) throw refuse();
    let url: URL;
    try {
      url = new URL(raw, this.opts.publicUrl);
    } catch {
      throw refuse();
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse();
    if (url.username || url.password) throw refuse();
    const own = new URL(this.opts.publicUrl).origin;
    if (url.origin === own) return url.href;
    for (const allowed of this.opts.landingAllow) {
      let a: URL;
      try {
        a = new URL(allowed);
      } catch {
        continue;
      }
      if (a.origin === url.origin && url.pathname.startsWith(a.pathname)) return url.href;
    }
    throw refuse();
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

export function stateError(): KernelError {
  return new KernelError('E_OAUTH_STATE', 'OAuth: Received invalid or expired state');
}

/**
 * A contactTemplate as APIv3 Contact.create params: our v3 shape as is, or the reference's APIv4 shape
 * (`values` + `chain` of `[Entity, 'create', {values}]`) turned into v3 params with `api.<Entity>.create` chains.
 */
export function contactCreateParams(tpl: Row): Row {
  if (!isObj(tpl.values)) return { ...tpl };
  const params: Row = { ...tpl.values };
  if (isObj(tpl.chain)) {
    for (const call of Object.values(tpl.chain)) {
      if (!Array.isArray(call) || typeof call[0] !== 'string' || typeof call[1] !== 'string') continue;
      const values = isObj(call[2]) && isObj(call[2].values) ? { ...call[2].values } : {};
      delete values.contact_id;
      params[`api.${call[0]}.${call[1]}`] = values;
    }
  }
  return params;
}

export const OAUTH_PERMS = P;
