/**
 * The generic APIv3 actions, written once over entity metadata (entity `'*'`): get, getsingle,
 * getvalue, getcount, create, delete, replace, validate, getrefcount, getlist, getoptions, getfields,
 * getactions, getunique, and the deprecated setvalue and update.
 */
import { KernelError, type ActionContext, type ActionRegistrar } from '../../kernel';
import type { CompiledEntity, EntityRegistry, EntityService, EntitySession, FieldDef } from '../entity-core';
import { permissionFor } from '../entity-core';
import { conditionPaths, type Condition } from '../entity-core';
import { envelope, scalarEnvelope, stringifyLeaves } from './envelope';
import { api3Error, invalid, mandatoryMissing, returnedError } from './errors';
import {
  buildQuery,
  coerceValue,
  optionValue,
  parseFilters,
  parseOptions,
  resolvePath,
  truthy,
  type FilterContext,
  type GetOptions,
} from './params';
import { snake } from './service';

type Params = Record<string, unknown>;
type Row = Record<string, unknown>;

const ACTIONS = [
  'get',
  'getsingle',
  'getvalue',
  'getcount',
  'create',
  'delete',
  'replace',
  'validate',
  'getrefcount',
  'getlist',
  'getoptions',
  'getfields',
  'getactions',
  'getunique',
  'setvalue',
  'update',
] as const;
const WRITES = new Set(['create', 'delete', 'replace', 'setvalue', 'update']);
export const DEPRECATED: Record<string, string> = {
  setvalue: 'setvalue is deprecated; use create with an id',
  update: 'update is deprecated; use create with an id',
};
const TYPE_CODES: Record<string, number> = {
  Int: 1,
  String: 2,
  Date: 4,
  Boolean: 16,
  Text: 32,
  Timestamp: 256,
  Float: 512,
  Money: 1024,
  Email: 2048,
  Url: 4096,
};

/** §6.1: the permission an entity's map gives an action (shared with APIv4, in entity-core). */
export { permissionFor };

export function defineGenericActions(actions: ActionRegistrar, service: EntityService): void {
  const registry = service.registry;
  const g = new Generic(registry, service);
  for (const action of ACTIONS) {
    actions.define({
      version: 3,
      entity: '*',
      action,
      description: `Generic APIv3 ${action}${DEPRECATED[action] ? ' (deprecated)' : ''}`,
      params: { type: 'object' },
      permission: (params: Params, entity: string) => permissionFor(registry, entity, action, params),
      writes: WRITES.has(action),
      entities: () => registry.names(3),
      handler: (params: Params, ctx: ActionContext) => g.run(action, registry.get(ctx.entity), params, ctx),
    });
  }
}

/** Access refused to a write, in the APIv3 wording. */
const ACCESS_DENIED = () =>
  new KernelError('E_FORBIDDEN', 'Permission denied to modify contact record', {
    details: { error_code: 'unauthorized' },
  });
const SAVE_ERRORS = { mandatory: (fields: string[]) => mandatoryMissing(fields), access: ACCESS_DENIED };

class Generic {
  constructor(
    private registry: EntityRegistry,
    private service: EntityService,
  ) {}

  private session(ctx: ActionContext): EntitySession {
    return { db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: ctx.trusted };
  }

  run(action: (typeof ACTIONS)[number], e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    switch (action) {
      case 'get':
        return this.get(e, p, ctx);
      case 'getsingle':
        return this.getsingle(e, p, ctx);
      case 'getvalue':
        return this.getvalue(e, p, ctx);
      case 'getcount':
        return this.getcount(e, p, ctx);
      case 'create':
        return this.create(e, p, ctx);
      case 'delete':
        return this.delete(e, p, ctx);
      case 'replace':
        return this.replace(e, p, ctx);
      case 'validate':
        return this.validate(e, p, ctx);
      case 'getrefcount':
        return this.getrefcount(e, p, ctx);
      case 'getlist':
        return this.getlist(e, p, ctx);
      case 'getoptions':
        return this.getoptions(e, p, ctx);
      case 'getfields':
        return this.getfields(e, p, ctx);
      case 'getactions':
        return this.getactions(e, ctx);
      case 'getunique':
        return Promise.resolve(this.getunique(e));
      case 'setvalue':
        return this.setvalue(e, p, ctx);
      case 'update':
        return this.update(e, p, ctx);
    }
  }

  private fc(ctx: ActionContext): FilterContext {
    return { db: ctx.db, registry: this.registry, principal: ctx.principal };
  }

  // ---------------------------------------------------------------- reads

  /** Runs a get and returns wire-form records plus the parsed options. */
  /** Options and conditions of a read: entity beforeGet taps, filters, then get defaults (e.g. Contact's trash). */
  private async conditions(
    e: CompiledEntity,
    params: Params,
    ctx: ActionContext,
    over: Partial<GetOptions> = {},
  ): Promise<{ o: GetOptions; where: Condition[] }> {
    const { params: p, where: extra } = this.service.beforeGet(e, params, this.session(ctx));
    const o = { ...parseOptions(e, p, this.registry), ...over };
    const where = [...(await parseFilters(this.fc(ctx), e, p, o.or)), ...extra];
    for (const f of e.fields) {
      if (
        f.getDefault !== undefined &&
        !where.some((w) => 'path' in w && w.path === f.name) &&
        ![f.name, f.uniqueName, ...(f.aliases ?? [])].some((k) => k && p[k] !== undefined)
      ) {
        where.push({ path: f.name, op: '=', value: f.getDefault });
      }
    }
    return { o, where };
  }

  async select(
    e: CompiledEntity,
    params: Params,
    ctx: ActionContext,
    over: Partial<GetOptions> = {},
  ): Promise<{ rows: Row[]; o: GetOptions }> {
    const { o, where } = await this.conditions(e, params, ctx, over);
    // Return list: known fields/paths only (unknown ones are dropped, as with check_permissions).
    const perms = ctx.principal.permissions;
    const mayRead = (f: FieldDef) => !f.secret || perms.has('*') || f.secret.some((x) => perms.has(x));
    const requested = o.return?.filter((r) => {
      const x = resolvePath(this.registry, e, r, 'name');
      return x && mayRead(x.field);
    });
    const wanted = requested?.length ? requested : (e.defaultReturn ?? this.service.store.defaultSelect(e));
    const out: Array<{ key: string; path: string; field: FieldDef }> = [];
    const seen = new Set<string>();
    for (const w of wanted) {
      const r = resolvePath(this.registry, e, w, 'name')!;
      const dotted = w.includes('.');
      const path = dotted ? w : r.field.name;
      const key = dotted ? w : e.uniqueNamesOnGet && r.field.uniqueName ? r.field.uniqueName : r.field.name;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ key, path: r.field.via && !dotted ? r.field.via : path, field: r.field });
    }
    if (!seen.has('id')) {
      const idf = e.byName.get('id')!;
      if (e.uniqueNamesOnGet) out.push({ key: 'id', path: 'id', field: idf });
      else out.unshift({ key: 'id', path: 'id', field: idf });
    }
    const selectPaths = new Set(out.filter((x) => !x.field.labelOf).map((x) => x.path));
    for (const x of out) if (x.field.labelOf) selectPaths.add(x.field.labelOf);
    const query = buildQuery(where, o, [...selectPaths]);
    await this.checkJoins(e, query, ctx);
    const raw = o.isCount ? { paths: [], rows: [] } : await this.service.getRows(this.session(ctx), e, query);
    const labelMaps = new Map<string, Map<string, string>>();
    for (const x of out.filter((y) => y.field.labelOf)) {
      const src = e.byName.get(x.field.labelOf!)!;
      const opts = (await this.registry.optionsFor(ctx.db, src)) ?? [];
      labelMaps.set(x.key, new Map(opts.map((op) => [op.value, op.label])));
    }
    const emptyNulls = e.nulls === 'empty';
    // Per column, worked out once: where the value comes from, and its label map for option labels.
    const at = new Map(raw.paths.map((p, i) => [p, i]));
    const cols = out.map((x) => ({
      key: x.key,
      from: at.get(x.field.labelOf ?? x.path) ?? -1,
      labels: x.field.labelOf ? labelMaps.get(x.key)! : undefined,
      json: x.field.type === 'Json',
    }));
    const rows = raw.rows.map((r) => {
      const rec: Row = {};
      for (const x of cols) {
        const stored = x.from < 0 ? undefined : r[x.from];
        const v = x.labels ? (stored === null ? null : (x.labels.get(String(stored)) ?? null)) : stored;
        if (v === null || v === undefined) {
          if (emptyNulls) rec[x.key] = '';
          continue;
        }
        // Leaves as strings (§2.1); one pass, no recursion for the common scalar case.
        rec[x.key] =
          typeof v === 'string'
            ? v
            : typeof v === 'object'
              ? x.json
                ? JSON.stringify(v)
                : stringifyLeaves(v)
              : typeof v === 'boolean'
                ? v
                  ? '1'
                  : '0'
                : String(v);
      }
      return rec;
    });
    return { rows, o };
  }

  private async checkJoins(e: CompiledEntity, query: ReturnType<typeof buildQuery>, ctx: ActionContext): Promise<void> {
    const paths = [
      ...(query.select ?? []),
      ...(query.sort ?? []).map((s) => s.path),
      ...(query.where ?? []).flatMap(conditionPaths),
    ];
    await this.service.checkJoins(
      this.session(ctx),
      e,
      paths,
      3,
      (entity, prefix) =>
        new KernelError('E_FORBIDDEN', `Authorization failed to join onto ${entity} api in parameter ${prefix}`, {
          details: { error_code: 'unauthorized' },
        }),
    );
  }

  async get(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const { rows, o } = await this.select(e, p, ctx);
    if (o.isCount) return this.getcount(e, p, ctx);
    const md = optionValue(p, 'metadata');
    const wantsFields = Array.isArray(md) ? md.includes('fields') : md === 'fields';
    if (!wantsFields) return envelope(rows, { sequential: o.sequential });
    const fields = ((await this.getfields(e, { action: 'get' }, ctx)) as { values: unknown }).values;
    return envelope(rows, { sequential: o.sequential, extra: { metadata: { fields } } });
  }

  async getsingle(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<Row> {
    const { rows } = await this.select(e, p, ctx, { sequential: true });
    if (rows.length !== 1)
      throw returnedError(`Expected one ${e.name} but found ${rows.length}`, { count: rows.length });
    return rows[0];
  }

  async getvalue(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const ret =
      typeof p.return === 'string'
        ? p.return.trim()
        : Array.isArray(p.return) && p.return.length === 1
          ? String(p.return[0])
          : '';
    if (!ret || ret.includes(','))
      throw returnedError('missing param return=field you want to read the value of', {
        error_type: 'mandatory_missing',
        missing_param: 'return',
      });
    const rec = await this.getsingle(e, { ...p, return: ret }, ctx);
    const r = resolvePath(this.registry, e, ret, 'name');
    const key =
      r && !ret.includes('.') ? (e.uniqueNamesOnGet && r.field.uniqueName ? r.field.uniqueName : r.field.name) : ret;
    if (!(key in rec)) throw returnedError(`field ${ret} unset or not existing`, { invalid_field: ret });
    return rec[key];
  }

  async getcount(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<number> {
    const { where } = await this.conditions(e, p, ctx);
    const q = { where };
    await this.checkJoins(e, q, ctx);
    return this.service.count(this.session(ctx), e, q);
  }

  // ---------------------------------------------------------------- writes

  private idOf(e: CompiledEntity, p: Params): number | undefined {
    const idf = e.byName.get('id')!;
    const keys = ['id', idf.uniqueName, ...(idf.aliases ?? []), `${snake(e.name)}_id`].filter(Boolean) as string[];
    const k = keys.find((x) => p[x] !== undefined && p[x] !== null && p[x] !== '');
    if (!k) return undefined;
    const v = p[k];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
    if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v);
    throw invalid(`${k} is not a valid integer`, 2001, { error_field: k, type: 'integer' });
  }

  /** Writable values from params, by field name, validated. */
  async values(e: CompiledEntity, p: Params, ctx: ActionContext, isUpdate: boolean): Promise<Row> {
    const out: Row = {};
    for (const [key, raw] of Object.entries(p)) {
      const f = e.lookup.get(key);
      if (!f || f.name === 'id' || f.readonly || f.related || f.labelOf || f.via || raw === undefined) continue;
      if (f.name in out && key !== f.name) continue; // the canonical name wins over an alias
      let v: unknown;
      if (raw === null || raw === '' || raw === 'null') v = null;
      else if (f.serialize) {
        const items = Array.isArray(raw)
          ? raw
          : String(raw)
              .split(/[\x01,]/)
              .filter(Boolean);
        v = await Promise.all(items.map((x) => coerceValue(this.fc(ctx), f, x, key)));
      } else v = await coerceValue(this.fc(ctx), f, raw, key);
      if (typeof v === 'string' && f.maxlength && v.length > f.maxlength) {
        throw api3Error(
          'E_INVALID_PARAMS',
          2100,
          `Value for ${key} is ${v.length} characters  - This field has a maxlength of ${f.maxlength} characters.`,
          { field: key, max_length: f.maxlength },
        );
      }
      out[f.name] = v;
    }
    if (!isUpdate) {
      for (const f of e.fields) if (out[f.name] === undefined && f.apiDefault !== undefined) out[f.name] = f.apiDefault;
    }
    return out;
  }

  private missing(e: CompiledEntity, values: Row): string[] {
    return e.fields
      .filter(
        (f) => f.apiRequired && (values[f.name] === undefined || values[f.name] === null || values[f.name] === ''),
      )
      .map((f) => f.name);
  }

  private async match(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<number | undefined> {
    const mandatory = optionValue(p, 'match-mandatory');
    const spec = mandatory ?? optionValue(p, 'match');
    if (spec === undefined || spec === null || spec === '') return undefined;
    const fields = Array.isArray(spec)
      ? spec.map(String)
      : String(spec)
          .split(',')
          .map((s) => s.trim());
    const filter: Params = { options: { limit: 2 } };
    for (const f of fields) {
      if (!e.lookup.get(f)) throw invalid(`Unknown field ${f} in match criteria`);
      filter[f] = p[f] ?? { 'IS NULL': 1 };
    }
    const { rows } = await this.select(e, filter, ctx, { sequential: true, return: ['id'] });
    if (rows.length > 1) throw invalid('Ambiguous match criteria');
    if (rows.length === 0 && mandatory !== undefined) throw invalid('Failed to match existing record');
    return rows.length ? Number(rows[0].id) : undefined;
  }

  /** Create, or update when an id is given (or matched); returns the saved row (field names). */
  async save(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<Row> {
    const id = this.idOf(e, p) ?? (await this.match(e, p, ctx));
    const existing = id === undefined ? null : await this.service.byId(this.session(ctx), e, id);
    if (id !== undefined && !existing) throw invalid(`${e.name} id ${id} not found.`);
    const values = await this.values(e, p, ctx, !!existing);
    return this.service.save(this.session(ctx), e, values, { existing, params: p, errors: SAVE_ERRORS });
  }

  private wire(e: CompiledEntity, row: Row): Row {
    const rec: Row = {};
    for (const f of e.fields) {
      if (f.related || f.labelOf || f.via || f.secret) continue;
      if (f.name in row) rec[f.name] = row[f.name];
    }
    return stringifyLeaves(rec) as Row;
  }

  async create(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const row = await this.save(e, p, ctx);
    return envelope([this.wire(e, row)], { sequential: truthy(p.sequential) });
  }

  async delete(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const id = this.idOf(e, p);
    if (id === undefined) throw mandatoryMissing(['id']);
    const row = await this.service.byId(this.session(ctx), e, id);
    if (!row) throw invalid(`Could not delete entity id ${id}`);
    await this.service.delete(this.session(ctx), e, row, { params: p, errors: SAVE_ERRORS });
    return scalarEnvelope(1);
  }

  async replace(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    if (!Array.isArray(p.values)) throw mandatoryMissing(['values']);
    const set: Params = {};
    for (const [k, v] of Object.entries(p))
      if (!['values', 'sequential', 'options'].includes(k) && !k.startsWith('api.')) set[k] = v;
    const { rows: before } = await this.select(e, { ...set, return: ['id'] }, ctx, {
      limit: 0,
      offset: 0,
      sequential: true,
    });
    const kept = new Set<number>();
    const saved: Row[] = [];
    for (const item of p.values as Params[]) {
      const row = await this.save(e, { ...set, ...item }, ctx);
      kept.add(Number(row.id));
      saved.push(this.wire(e, row));
    }
    for (const r of before) {
      if (!kept.has(Number(r.id))) await this.delete(e, { id: Number(r.id) }, ctx);
    }
    return envelope(saved, { sequential: truthy(p.sequential) });
  }

  async update(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    if (p.id === undefined || p.id === null || p.id === '') throw invalid('Mandatory parameter missing id');
    const id = this.idOf(e, p)!;
    const rows = await this.service.get(this.session(ctx), e, {
      where: [{ path: 'id', op: '=', value: id }],
      limit: 2,
    });
    if (!rows.length) throw invalid(`No ${e.name} with id ${id}`);
    const env = (await this.create(e, p, ctx)) as Record<string, unknown>;
    return { ...env, deprecated: DEPRECATED.update };
  }

  async setvalue(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const missing = ['id', 'field'].filter((k) => p[k] === undefined || p[k] === '');
    if (!('value' in p)) missing.push('value');
    if (missing.length)
      throw api3Error(
        'E_INVALID_PARAMS',
        'required',
        `Mandatory key(s) missing from params array: ${missing.join(', ')}`,
        { fields: missing },
      );
    const id = this.idOf(e, p)!;
    const f = e.lookup.get(String(p.field));
    if (!f || f.readonly || f.related || f.labelOf || f.via || f.name === 'id')
      throw api3Error(
        'E_INVALID_PARAMS',
        'invalid_field',
        `Param 'field' (${String(p.field)}) is invalid. must be an existing field`,
        { field: String(p.field) },
      );
    if (f.type === 'Int' && p.value !== null && p.value !== '' && !/^-?\d+$/.test(String(p.value))) {
      throw api3Error('E_INVALID_PARAMS', 'NaN', `Param '${f.name}' must be a number`, { field: f.name });
    }
    if (f.required && (p.value === null || p.value === ''))
      throw api3Error('E_INVALID_PARAMS', 'required', `Param '${f.name}' is required`, { field: f.name });
    const row = await this.save(e, { id, [f.name]: p.value }, ctx);
    return {
      ...scalarEnvelope(stringifyLeaves({ id: row.id, [f.name]: row[f.name] })),
      deprecated: DEPRECATED.setvalue,
    };
  }

  async validate(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const action = String(p.action ?? p.api_action ?? '');
    if (!action) throw mandatoryMissing(['action']);
    const errors: Record<string, { message: string; code: string }> = {};
    const params = { ...p };
    delete params.action;
    if (action === 'create') {
      const isUpdate = this.idOf(e, params) !== undefined;
      for (const [key, raw] of Object.entries(params)) {
        const f = e.lookup.get(key);
        if (!f || f.readonly || f.name === 'id' || raw === null || raw === '') continue;
        try {
          await this.values(e, { [key]: raw }, ctx, true);
        } catch (err) {
          errors[f.name] = { message: (err as Error).message, code: 'incorrect_value' };
        }
      }
      if (!isUpdate) {
        const vals: Row = {};
        for (const [k, v] of Object.entries(params)) {
          const f = e.lookup.get(k);
          if (f) vals[f.name] = v;
        }
        for (const f of e.fields)
          if (vals[f.name] === undefined && f.apiDefault !== undefined) vals[f.name] = f.apiDefault;
        for (const m of this.missing(e, vals))
          errors[m] ??= { message: `Mandatory key(s) missing from params array: ${m}`, code: 'mandatory_missing' };
      }
    }
    return envelope([errors as Row], { sequential: true });
  }

  // ---------------------------------------------------------------- meta

  async getrefcount(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const id = this.idOf(e, p);
    if (id === undefined) throw mandatoryMissing(['id']);
    const counts = await this.service.store.refCounts(ctx.db, e, id);
    return envelope(counts.map((c) => ({ ...c })) as Row[], { sequential: true });
  }

  async getlist(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const labelField = String(
      p.label_field ??
        e.labelField ??
        ['sort_name', 'title', 'label', 'name', 'subject'].find((f) => e.byName.has(f)) ??
        'id',
    );
    const searchField = String(
      p.search_field ?? ['sort_name', 'title', 'label', 'name', 'subject'].find((f) => e.byName.has(f)) ?? labelField,
    );
    const idField = String(p.id_field ?? 'id');
    for (const f of [labelField, searchField, idField])
      if (!e.lookup.get(f)) throw invalid(`Unknown field ${f} for getlist`);
    const pageSize = 15;
    const page = Math.max(1, Number(p.page_num ?? 1) || 1);
    const extra = p.params && typeof p.params === 'object' ? (p.params as Params) : {};
    const filter: Params = {
      ...extra,
      return: [idField, labelField],
      options: { limit: pageSize + 1, offset: (page - 1) * pageSize, sort: labelField },
    };
    if (p.id !== undefined && p.id !== '') filter[idField] = Array.isArray(p.id) ? { IN: p.id } : p.id;
    else if (p.input !== undefined && p.input !== '')
      filter[searchField] = { LIKE: `${truthy(p.add_wildcard) ? '%' : ''}${String(p.input)}%` };
    const { rows } = await this.select(e, filter, ctx, { sequential: true });
    const more = rows.length > pageSize;
    const values = rows
      .slice(0, pageSize)
      .map((r) => ({ id: r[idField], label: r[labelField] ?? '', description: [] as string[] }));
    return envelope(values, { sequential: true, extra: { page_num: page, more_results: more } });
  }

  private fieldParam(p: Params): string {
    return String(p.field ?? p.name ?? '');
  }

  async getoptions(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const name = this.fieldParam(p);
    if (!name) throw mandatoryMissing(['field']);
    const f = e.lookup.get(name);
    if (!f) throw invalid(`The field '${name}' doesn't exist.`);
    const opts = await this.registry.optionsFor(ctx.db, f);
    if (!opts) throw invalid(`The field '${name}' has no associated option list.`);
    const ctxName = String(optionValue(p, 'context') ?? p.context ?? 'get');
    const pick = (o: { name: string; label: string }) =>
      ctxName === 'validate' || ctxName === 'match' ? o.name : o.label;
    if (truthy(p.sequential)) return scalarEnvelope(opts.map((o) => ({ key: o.value, value: pick(o) })));
    return scalarEnvelope(Object.fromEntries(opts.map((o) => [o.value, pick(o)])));
  }

  async getfields(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    let action = String(p.api_action ?? p.action ?? 'get').toLowerCase();
    if (action === 'getvalue' || action === 'getcount') action = 'get';
    const keyed: Record<string, Row> = {};
    const getOptions = optionValue(p, 'get_options');
    const snakeName = snake(e.name);
    if (action === 'delete') {
      keyed.id = { name: 'id', title: `${e.name} ID`, 'api.required': 1, 'api.aliases': [`${snakeName}_id`], type: 1 };
      return scalarEnvelope(keyed);
    }
    const byUnique = action.startsWith('get');
    for (const f of e.fields) {
      if (!byUnique && (f.related || f.labelOf || f.via)) continue;
      if (f.secret && !ctx.principal.permissions.has('*') && !f.secret.some((x) => ctx.principal.permissions.has(x)))
        continue;
      const spec: Row = { name: f.name, type: TYPE_CODES[f.type] ?? 2, title: f.title };
      if (f.description) spec.description = f.description;
      if (f.required) spec.required = true;
      if (f.maxlength) spec.maxlength = f.maxlength;
      if (!f.related && !f.labelOf && !f.via) spec.where = `${e.table}.${f.column ?? f.name}`;
      spec.table_name = e.table;
      spec.entity = e.name;
      if (f.fk) spec.FKApiName = f.fk;
      if (f.optionGroup) spec.pseudoconstant = { optionGroupName: f.optionGroup };
      if (f.pseudoEntity)
        spec.pseudoconstant = {
          table: this.registry.get(f.pseudoEntity.entity).table,
          keyColumn: 'id',
          labelColumn: f.pseudoEntity.labelField,
        };
      if (f.serialize) spec.serialize = 1;
      if (f.uniqueName && f.uniqueName !== f.name) spec.uniqueName = f.uniqueName;
      spec.is_core_field = true;
      if (f.apiRequired && action !== 'get' && !byUnique) spec['api.required'] = 1;
      if (f.apiDefault !== undefined && !byUnique) spec['api.default'] = f.apiDefault;
      if (f.getDefault !== undefined && byUnique) spec['api.default'] = f.getDefault;
      const aliases = [...(f.aliases ?? [])];
      if (f.name === 'id' && !aliases.includes(`${snakeName}_id`)) aliases.unshift(`${snakeName}_id`);
      if (aliases.length) spec['api.aliases'] = aliases;
      if (
        getOptions &&
        (getOptions === 'all' || getOptions === f.name) &&
        (f.optionGroup || f.pseudoEntity || f.options)
      ) {
        const opts = (await this.registry.optionsFor(ctx.db, f)) ?? [];
        spec.options = truthy(p.sequential)
          ? opts.map((o) => ({ key: o.value, value: o.label }))
          : Object.fromEntries(opts.map((o) => [o.value, o.label]));
      }
      const key = byUnique && f.uniqueName && f.name !== 'id' ? f.uniqueName : f.name;
      keyed[key] = spec;
    }
    return scalarEnvelope(keyed);
  }

  async getactions(e: CompiledEntity, ctx: ActionContext): Promise<unknown> {
    const api = ctx.scope.cradle.api;
    const names: string[] = [];
    for (const a of api.actions({ version: 3, entity: e.name })) {
      if (await api.can(e.name, a.action, ctx.principal)) names.push(a.action);
    }
    return { ...scalarEnvelope(names), deprecated: { ...DEPRECATED } };
  }

  getunique(e: CompiledEntity): unknown {
    const out: Record<string, string[]> = {};
    for (const i of e.indexes ?? []) if (i.unique) out[i.name] = i.fields;
    return scalarEnvelope(out);
  }
}
