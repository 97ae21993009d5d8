/**
 * The generic APIv4 actions, written once over entity metadata (entity `'*'`, version 4): get, create,
 * update, save, delete, replace, getFields, getActions, checkAccess; every one accepts `chain`.
 */
import { KernelError, isKernelError, type ActionContext, type ActionRegistrar, type Permission } from '../../kernel';
import type {
  CompiledEntity,
  EntityRegistry,
  EntityService,
  EntitySession,
  FieldDef,
  OptionItem,
  Query,
} from '../entity-core';
import { permissionFor, type Condition } from '../entity-core';
import {
  optionsOf,
  optionText,
  orderOfValues,
  resolveValueSuffixes,
  splitSuffix,
  translateFilter,
  type Suffix,
} from './suffixes';
import {
  coerceWrite,
  equalities,
  invalid,
  mayRead,
  mentions,
  parseOrderBy,
  parseWhere,
  resolvePath,
  v4Field,
  v4Fields,
  type WhereContext,
} from './params';
import type { Api4Result, Row } from './types';
import { applyIndex, chainRefs, filterRows, optionId, pick, substitute, typed } from './rows';

type Params = Record<string, unknown>;

export const ACTIONS = [
  'get',
  'create',
  'update',
  'save',
  'delete',
  'replace',
  'getFields',
  'getActions',
  'checkAccess',
] as const;
type ActionName = (typeof ACTIONS)[number];
const WRITES = new Set<string>(['create', 'update', 'save', 'delete', 'replace']);

const DESCRIPTIONS: Record<ActionName, string> = {
  get: 'Get records (select, where, orderBy, limit, offset, joins over foreign keys, row_count)',
  create: 'Create one record from values',
  update: 'Update every record matching where with values',
  save: 'Create or update several records (records, defaults, match)',
  delete: 'Delete every record matching where',
  replace: 'Replace the records matching where with records (saves them, deletes the rest)',
  getFields: 'Field metadata in the APIv4 shape',
  getActions: 'The actions the caller may run on this entity',
  checkAccess: 'Whether the caller may run an action with these values',
};

const list = { type: 'array' } as const;
const obj = { type: 'object' } as const;
const common = { checkPermissions: { type: 'boolean' }, chain: obj, debug: {}, language: { type: 'string' } };
const SCHEMAS: Record<ActionName, object> = {
  get: {
    select: { type: 'array', items: { type: 'string' } },
    where: list,
    orderBy: obj,
    limit: { type: 'integer', minimum: 0 },
    offset: { type: 'integer', minimum: 0 },
  },
  create: { values: obj },
  update: { values: obj, where: list, reload: { type: 'boolean' } },
  save: {
    records: { type: 'array', items: obj },
    defaults: obj,
    match: { type: 'array', items: { type: 'string' } },
    reload: { type: 'boolean' },
  },
  delete: { where: list },
  replace: { records: { type: 'array', items: obj }, defaults: obj, where: list },
  getFields: {
    action: { type: 'string' },
    loadOptions: {
      anyOf: [
        { type: 'boolean' },
        { type: 'array', items: { enum: ['id', 'name', 'label', 'description', 'color', 'icon'] } },
      ],
    },
    select: { type: 'array', items: { type: 'string' } },
    where: list,
    values: obj,
  },
  getActions: { select: { type: 'array', items: { type: 'string' } }, where: list },
  checkAccess: { action: { type: 'string', minLength: 1 }, values: obj },
};

const DATA_TYPES: Record<string, string> = {
  Int: 'Integer',
  String: 'String',
  Text: 'Text',
  Boolean: 'Boolean',
  Date: 'Date',
  Timestamp: 'Timestamp',
  Float: 'Float',
  Money: 'Money',
  Email: 'String',
  Url: 'String',
};
const INPUT_TYPES: Record<string, string> = {
  Int: 'Number',
  String: 'Text',
  Text: 'TextArea',
  Boolean: 'CheckBox',
  Date: 'Date',
  Timestamp: 'Date',
  Float: 'Number',
  Money: 'Number',
  Email: 'Email',
  Url: 'Url',
};

/** The permission an APIv4 action needs, from the entity's map (shared with APIv3). */
export function v4Permission(registry: EntityRegistry, entity: string, action: string): Permission {
  const p = (a: string) => permissionFor(registry, entity, a);
  const own =
    registry.find(entity)?.permissions?.[action.toLowerCase()] ?? registry.find(entity)?.permissions?.[action];
  if (own !== undefined) return own; // the entity's map names this action itself
  switch (action.toLowerCase()) {
    case 'save':
      return { allOf: [p('create'), p('update')] };
    case 'replace':
      return { allOf: [p('create'), p('update'), p('delete')] };
    case 'checkaccess':
      return 'public';
    default:
      return p(action);
  }
}

export function defineGenericActions(actions: ActionRegistrar, service: EntityService): void {
  const registry = service.registry;
  const g = new Generic(registry, service);
  for (const action of ACTIONS) {
    actions.define({
      version: 4,
      entity: '*',
      action,
      description: DESCRIPTIONS[action],
      params: { type: 'object', additionalProperties: false, properties: { ...common, ...SCHEMAS[action] } },
      permission: (_params: Params, entity: string) => v4Permission(registry, entity, action),
      writes: WRITES.has(action),
      entities: () => registry.names(4),
      handler: async (params: Params, ctx: ActionContext): Promise<Api4Result> => {
        const e = registry.get(ctx.entity);
        const { values, countMatched } = await g.run(action, e, params, ctx);
        if (params.chain) await g.chain(values, params.chain, ctx);
        const result: Api4Result = {
          entity: e.name,
          action,
          version: 4,
          values,
          count: countMatched ?? values.length,
          countFetched: values.length,
        };
        if (countMatched !== undefined) result.countMatched = countMatched;
        return result;
      },
    });
  }
}

/** Who reads: the principal, and whether the call is trusted (secrets readable). */
type Reader = Pick<ActionContext, 'principal' | 'trusted'>;

const ACL = () => new KernelError('E_FORBIDDEN', 'ACL check failed', { details: { acl: true } });

/** APIv4's wording of the service's refusals. */
const SAVE_ERRORS = {
  mandatory: (fields: string[], e: CompiledEntity) =>
    invalid(`Mandatory values missing from Api4 ${e.name}::create: ${fields.join(', ')}`, { fields }),
  access: ACL,
};

class Generic {
  constructor(
    private registry: EntityRegistry,
    private service: EntityService,
  ) {}

  private session(ctx: ActionContext): EntitySession {
    return { db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: ctx.trusted };
  }

  run(
    action: ActionName,
    e: CompiledEntity,
    p: Params,
    ctx: ActionContext,
  ): Promise<{ values: Row[]; countMatched?: number }> {
    switch (action) {
      case 'get':
        return this.get(e, p, ctx);
      case 'create':
        return this.create(e, p, ctx);
      case 'update':
        return this.update(e, p, ctx);
      case 'save':
        return this.save(e, p, ctx);
      case 'delete':
        return this.delete(e, p, ctx);
      case 'replace':
        return this.replace(e, p, ctx);
      case 'getFields':
        return this.getFields(e, p, ctx);
      case 'getActions':
        return this.getActions(e, p, ctx);
      case 'checkAccess':
        return this.checkAccess(e, p, ctx);
    }
  }

  private wc(e: CompiledEntity, ctx: ActionContext): WhereContext {
    return { registry: this.registry, entity: e, principal: ctx.principal, trusted: ctx.trusted, paths: [] };
  }

  /**
   * Conditions of a read or write: `where`, the conditions the entity's `beforeGet` taps add (e.g. only
   * the caller's session's tokens), then the entity's get defaults (Contact's `is_deleted`).
   */
  private async where(
    e: CompiledEntity,
    where: unknown,
    wc: WhereContext,
    db: ActionContext['db'],
    applyDefaults = true,
    params: Params = {},
  ): Promise<Condition[]> {
    const conds = parseWhere(wc, where);
    await this.translateSuffixes(wc, db);
    conds.push(...this.service.beforeGet(e, params, { principal: wc.principal, trusted: wc.trusted }).where);
    if (applyDefaults) {
      for (const f of v4Fields(e))
        if (f.getDefault !== undefined && !mentions(conds, f.name))
          conds.push({ path: f.name, op: '=', value: f.getDefault });
    }
    return conds;
  }

  /** Filters on `field:name` / `field:label` become filters on the stored values. */
  private async translateSuffixes(wc: WhereContext, db: ActionContext['db']): Promise<void> {
    for (const { filter, suffix, field, path } of wc.suffixed ?? [])
      await translateFilter(filter, suffix, await optionsOf(this.registry, db, field, path), field);
    wc.suffixed = [];
  }

  /** orderBy on `field:label`: the stored values in the order of their option text. */
  private async sortOf(wc: WhereContext, orderBy: unknown, db: ActionContext['db']): Promise<Query['sort']> {
    const sort = [];
    for (const item of parseOrderBy(wc, orderBy)) {
      if (!item.suffix) sort.push({ path: item.path, dir: item.dir });
      else {
        const options = await optionsOf(this.registry, db, item.suffix.field, item.suffix.path);
        sort.push({ path: item.path, dir: item.dir, byValues: orderOfValues(options, item.suffix.suffix) });
      }
    }
    return sort;
  }

  /** Joining onto another entity needs `get` on it too (as APIv3's joins). */
  private async checkJoins(wc: WhereContext, ctx: ActionContext): Promise<void> {
    await this.service.checkJoins(
      this.session(ctx),
      wc.entity,
      wc.paths.map((r) => r.path),
      4,
      (entity, _prefix, path) =>
        new KernelError('E_FORBIDDEN', `Authorization failed: cannot join onto ${entity} in ${path}`, {
          details: { acl: true },
        }),
    );
  }

  /** A stored row as APIv4 shows it: JSON types, secrets only for those allowed. */
  out(fieldsByPath: Map<string, FieldDef>, row: Row, ctx: Reader): Row {
    const rec: Row = {};
    for (const [path, v] of Object.entries(row)) {
      const f = fieldsByPath.get(path);
      if (!f || !mayRead(f, ctx.principal, ctx.trusted)) continue;
      rec[path] = typed(f, v);
    }
    return rec;
  }

  private allFields(e: CompiledEntity, ctx: Reader): Map<string, FieldDef> {
    return new Map(
      v4Fields(e)
        .filter((f) => mayRead(f, ctx.principal, ctx.trusted))
        .map((f) => [f.name, f]),
    );
  }

  /** A written record as returned by create/update/save: secrets are never echoed, to anyone. */
  private async readById(e: CompiledEntity, id: number, ctx: ActionContext): Promise<Row> {
    const fields = new Map([...this.allFields(e, ctx)].filter(([, f]) => !f.secret));
    const rows = await this.service.store.select(
      ctx.db,
      e,
      { where: [{ path: 'id', op: '=', value: id }], select: [...fields.keys()], limit: 1 },
      null,
    );
    return this.out(fields, rows[0] ?? { id }, ctx);
  }

  // ---------------------------------------------------------------- get

  async get(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<{ values: Row[]; countMatched?: number }> {
    const wc = this.wc(e, ctx);
    const requested = (p.select as string[] | undefined) ?? [];
    const rowCount = requested.includes('row_count');
    const rest = requested.filter((s) => s !== 'row_count');
    const fields = new Map<string, FieldDef>();
    const suffixed: Array<{ key: string; base: string; suffix: Suffix; options: OptionItem[] }> = [];
    if ((!rest.length && !rowCount) || rest.includes('*'))
      for (const [k, f] of this.allFields(e, ctx)) if (!f.secret) fields.set(k, f);
    for (const s of rest) {
      if (s === '*') continue;
      if (s.endsWith('.*')) {
        // `contact_id.*`: every readable field of the joined entity.
        const base = resolvePath(this.registry, e, `${s.slice(0, -2)}.id`, ctx.principal, { trusted: ctx.trusted });
        wc.paths.push(base);
        const target = base.joined[base.joined.length - 1];
        for (const f of v4Fields(target)) if (!f.secret) fields.set(`${s.slice(0, -2)}.${f.name}`, f);
        continue;
      }
      const { base, suffix } = splitSuffix(s);
      const r = resolvePath(this.registry, e, base, ctx.principal, { secretLeaf: true, trusted: ctx.trusted });
      if (!mayRead(r.field, ctx.principal, ctx.trusted)) continue; // secrets are omitted for callers lacking their permission
      wc.paths.push(r);
      if (suffix) {
        const options = await optionsOf(this.registry, ctx.db, r.field, s);
        suffixed.push({ key: s, base, suffix, options });
      } else fields.set(s, r.field);
    }
    // A suffixed column reads its field's stored value; the value itself is shown only if selected too.
    const hiddenBases = new Set<string>();
    for (const { base } of suffixed)
      if (!fields.has(base)) {
        hiddenBases.add(base);
        fields.set(base, resolvePath(this.registry, e, base, ctx.principal, { trusted: ctx.trusted }).field);
      }
    const where = await this.where(e, p.where, wc, ctx.db, true, p);
    const sort = await this.sortOf(wc, p.orderBy, ctx.db);
    await this.checkJoins(wc, ctx);
    // Fields a chain refers to (`$id`, `$contact_id`) are fetched with the rows (and returned, as APIv4 does).
    if (p.chain && fields.size) {
      for (const ref of new Set(['id', ...chainRefs(p.chain)])) {
        if (fields.has(ref)) continue;
        try {
          const r = resolvePath(this.registry, e, ref, ctx.principal, { trusted: ctx.trusted });
          wc.paths.push(r);
          fields.set(ref, r.field);
        } catch {
          /* not a field of this entity: left as written */
        }
      }
      await this.checkJoins(wc, ctx);
    }
    let values: Row[] = [];
    if (fields.size) {
      const raw = await this.service.get(this.session(ctx), e, {
        where,
        select: [...fields.keys()],
        sort,
        limit: (p.limit as number) || undefined,
        offset: (p.offset as number) || undefined,
        joinAccess: true,
      });
      values = raw.map((r) => {
        const row = this.out(fields, r, ctx);
        for (const column of suffixed) row[column.key] = optionText(column.options, column.suffix, row[column.base]);
        for (const base of hiddenBases) delete row[base];
        return row;
      });
    }
    const countMatched = rowCount
      ? await this.service.count(this.session(ctx), e, { where, joinAccess: true })
      : undefined;
    return { values, countMatched };
  }

  // ---------------------------------------------------------------- writes

  /** Writable values by field name (unknown or read-only fields are the caller's mistake). */
  private values(e: CompiledEntity, raw: unknown, ctx: Reader, allowId = true): Row {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('values must be an object');
    const out: Row = {};
    for (const [k, v] of Object.entries(raw as Row)) {
      if (v === undefined) continue;
      const f = v4Field(e, k);
      // A secret the caller may not read does not exist for them: it cannot be written either.
      if (!f || !mayRead(f, ctx.principal, ctx.trusted))
        throw invalid(`Invalid field '${k}' in values`, { error_field: k });
      if (f.name === 'id') {
        if (!allowId) continue;
        if (v === null) continue;
        const id = coerceWrite(f, v);
        if (typeof id !== 'number' || id <= 0) throw invalid('id must be a positive integer', { error_field: 'id' });
        out.id = id;
        continue;
      }
      if (f.readonly) continue; // computed or managed fields are ignored, so a fetched record can be saved back
      out[f.name] = coerceWrite(f, v);
    }
    return out;
  }

  /** Creates (existing null) or updates one record through the service; returns the stored row as APIv4 shows it. */
  private async saveOne(e: CompiledEntity, input: Row, existing: Row | null, ctx: ActionContext): Promise<Row> {
    const row = await this.service.save(this.session(ctx), e, input, {
      existing,
      params: input,
      errors: SAVE_ERRORS,
      reread: false,
    });
    return this.readById(e, Number(row.id), ctx);
  }

  /** Ids the caller may see among the records matching `where` (row access: view). */
  private async matching(
    e: CompiledEntity,
    where: unknown,
    ctx: ActionContext,
    extra: Condition[] = [],
  ): Promise<number[]> {
    const wc = this.wc(e, ctx);
    const conds = [...extra, ...(await this.where(e, where, wc, ctx.db, false))];
    await this.checkJoins(wc, ctx);
    const rows = await this.service.get(this.session(ctx), e, { where: conds, select: ['id'], joinAccess: true });
    return rows.map((r) => Number(r.id));
  }

  /** `values` with `field:name` keys resolved to stored values (option lookups need the database). */
  private suffixFree(e: CompiledEntity, raw: unknown, ctx: ActionContext): Promise<unknown> {
    return resolveValueSuffixes(this.registry, ctx.db, e, raw);
  }

  async create(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const values = this.values(e, await this.suffixFree(e, p.values, ctx), ctx, false);
    return { values: [await this.saveOne(e, values, null, ctx)] };
  }

  async update(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const values = this.values(e, await this.suffixFree(e, p.values, ctx), ctx);
    const hasWhere = Array.isArray(p.where) && p.where.length > 0;
    if (!hasWhere && values.id === undefined)
      throw invalid('Parameter "where" is required unless values include an id', { error_field: 'where' });
    const extra: Condition[] = values.id !== undefined ? [{ path: 'id', op: '=', value: values.id }] : [];
    const ids = await this.matching(e, p.where, ctx, extra);
    delete values.id;
    const out: Row[] = [];
    for (const id of ids)
      out.push(await this.saveOne(e, values, (await this.service.byId(this.session(ctx), e, id))!, ctx));
    return { values: out };
  }

  async save(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const records = (p.records as Row[] | undefined) ?? [];
    const defaults = this.values(e, await this.suffixFree(e, p.defaults ?? {}, ctx), ctx, false);
    const match = (p.match as string[] | undefined) ?? [];
    for (const m of match) if (!v4Field(e, m)) throw invalid(`Invalid field '${m}' in match`, { error_field: m });
    const out: Row[] = [];
    for (const [i, rec] of records.entries()) {
      const values = { ...defaults, ...this.values(e, await this.suffixFree(e, rec, ctx), ctx) };
      let existing: Row | null = null;
      if (values.id !== undefined) {
        const seen = await this.matching(e, undefined, ctx, [{ path: 'id', op: '=', value: values.id }]);
        if (!seen.length) {
          if (await this.service.byId(this.session(ctx), e, values.id as number)) throw ACL();
          throw invalid(`records[${i}]: ${e.name} id ${String(values.id)} not found`, { error_field: 'id' });
        }
        existing = await this.service.byId(this.session(ctx), e, values.id as number);
      } else if (match.length && match.every((m) => m in values)) {
        const conds: Condition[] = match.map((m) =>
          values[m] === null ? { path: m, op: 'IS NULL' } : { path: m, op: '=', value: values[m] },
        );
        const ids = await this.matching(e, undefined, ctx, conds);
        if (ids.length > 1)
          throw invalid(`records[${i}]: match criteria found ${ids.length} ${e.name} records`, {
            error_field: 'match',
          });
        if (ids.length) existing = await this.service.byId(this.session(ctx), e, ids[0]);
      }
      out.push(await this.saveOne(e, values, existing, ctx));
    }
    return { values: out };
  }

  async delete(e: CompiledEntity, p: Params, ctx: ActionContext) {
    if (!Array.isArray(p.where) || !p.where.length)
      throw invalid('Parameter "where" is required for delete', { error_field: 'where' });
    const ids = await this.matching(e, p.where, ctx);
    const out: Row[] = [];
    for (const id of ids) {
      await this.deleteOne(e, id, ctx);
      out.push({ id });
    }
    return { values: out };
  }

  private async deleteOne(e: CompiledEntity, id: number, ctx: ActionContext): Promise<void> {
    const row = (await this.service.byId(this.session(ctx), e, id))!;
    await this.service.delete(this.session(ctx), e, row, { params: { id }, errors: SAVE_ERRORS });
  }

  async replace(e: CompiledEntity, p: Params, ctx: ActionContext) {
    if (!Array.isArray(p.where) || !p.where.length)
      throw invalid('Parameter "where" is required for replace', { error_field: 'where' });
    const wc = this.wc(e, ctx);
    const conds = parseWhere(wc, p.where);
    await this.translateSuffixes(wc, ctx.db);
    const before = await this.matching(e, p.where, ctx);
    // The where's equalities are defaults of every record (as APIv4 does).
    const defaults = { ...equalities(conds), ...((p.defaults as Row | undefined) ?? {}) };
    const { values } = await this.save(e, { records: p.records ?? [], defaults }, ctx);
    const kept = new Set(values.map((r) => Number(r.id)));
    for (const id of before) if (!kept.has(id)) await this.deleteOne(e, id, ctx);
    return { values };
  }

  // ---------------------------------------------------------------- meta

  async getFields(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const action = String(p.action ?? 'get');
    const loadOptions = p.loadOptions;
    const out: Row[] = [];
    for (const f of v4Fields(e)) {
      if (!mayRead(f, ctx.principal, ctx.trusted)) continue;
      const spec: Row = {
        name: f.name,
        title: f.title,
        description: f.description ?? null,
        type: 'Field',
        entity: e.name,
        data_type: DATA_TYPES[f.type] ?? 'String',
        input_type:
          f.optionGroup || f.pseudoEntity || f.options
            ? 'Select'
            : f.fk
              ? 'EntityRef'
              : (INPUT_TYPES[f.type] ?? 'Text'),
        required: action === 'create' ? !!f.apiRequired : false,
        nullable: !f.required,
        readonly: !!f.readonly || f.name === 'id',
        default_value: f.apiDefault ?? null,
        fk_entity: f.fk ?? null,
        serialize: f.serialize ? 1 : null,
        column_name: f.column ?? f.name,
        maxlength: f.maxlength ?? null,
        options: false as unknown,
      };
      if (f.optionGroup || f.pseudoEntity || f.options) {
        spec.options = true;
        if (loadOptions) {
          const opts = (await this.registry.optionsFor(ctx.db, f)) ?? [];
          spec.options = Array.isArray(loadOptions)
            ? opts.map((o) =>
                Object.fromEntries(
                  (loadOptions as string[])
                    .filter((k) => ['id', 'name', 'label'].includes(k))
                    .map((k) => [k, k === 'id' ? optionId(f, o.value) : (o as unknown as Row)[k]]),
                ),
              )
            : Object.fromEntries(opts.map((o) => [o.value, o.label]));
        }
      }
      out.push(spec);
    }
    return { values: pick(filterRows(out, p.where), p.select) };
  }

  async getActions(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const api = ctx.scope.cradle.api;
    const values: Row[] = [];
    for (const a of api.actions({ version: 4, entity: e.name })) {
      if (await api.can(e.name, a.action, ctx.principal, { version: 4 }))
        values.push({ name: a.action, description: a.description });
    }
    return { values: pick(filterRows(values, p.where), p.select) };
  }

  async checkAccess(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const action = String(p.action);
    const api = ctx.scope.cradle.api;
    let access = await api.can(e.name, action, ctx.principal, { version: 4, params: { values: p.values ?? {} } });
    const values = (p.values ?? {}) as Row;
    if (access && !this.service.isTrusted(this.session(ctx)))
      access = await this.rowAccessAllows(e, action, values, ctx);
    return { values: [{ access }] };
  }

  /** checkAccess's row part: the row the action would touch (or create) must pass row access. */
  private async rowAccessAllows(e: CompiledEntity, action: string, values: Row, ctx: ActionContext): Promise<boolean> {
    const name = action.toLowerCase();
    const creates = name === 'create' || (name === 'save' && values.id === undefined);
    const operation = name === 'delete' ? 'delete' : ['update', 'save'].includes(name) ? 'edit' : undefined;
    const session = this.session(ctx);
    try {
      if (creates) await this.service.checkWrite(session, e, 'create', { proposed: values });
      else if ((operation || name === 'get') && values.id !== undefined) {
        const id = Number(values.id);
        if (!Number.isSafeInteger(id)) return false;
        const visible = await this.service.get(session, e, {
          where: [{ path: 'id', op: '=', value: id }],
          select: ['id'],
        });
        if (!visible.length) return false;
        if (operation) await this.service.checkWrite(session, e, operation, { id });
      }
      return true;
    } catch (err) {
      if (!isKernelError(err) || err.code !== 'E_FORBIDDEN') throw err;
      return false;
    }
  }

  // ---------------------------------------------------------------- chain

  /** `chain: {name: [entity, action, params, index]}` per row, with `$field` back-references. */
  async chain(rows: Row[], chain: unknown, ctx: ActionContext): Promise<void> {
    if (typeof chain !== 'object' || chain === null || Array.isArray(chain))
      throw invalid('chain must be an object {name: [entity, action, params, index]}');
    const specs = Object.entries(chain as Row);
    for (const [name, spec] of specs) {
      if (
        !Array.isArray(spec) ||
        typeof spec[0] !== 'string' ||
        typeof spec[1] !== 'string' ||
        (spec[2] !== undefined && (typeof spec[2] !== 'object' || spec[2] === null || Array.isArray(spec[2])))
      ) {
        throw invalid(`chain ${name}: expected [entity, action, params, index]`);
      }
      if (name === '__proto__' || name in Object.prototype) throw invalid(`chain name ${name} is not allowed`);
    }
    for (const row of rows) {
      for (const [name, spec] of specs) {
        const [entity, action, params, index] = spec as [string, string, Row | undefined, unknown];
        const sub = substitute(params ?? {}, row) as Row;
        const r = (await ctx.call(entity, action, sub, { version: 4 })) as Api4Result;
        row[name] = applyIndex(r.values, index);
      }
    }
  }
}
