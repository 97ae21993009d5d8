/**
 * What the generic APIv3 actions share (the service session, filters from params) and the reads: get,
 * getsingle, getvalue, getcount, as translators from APIv3 params to the entity service and back.
 */
import { KernelError, type ActionContext, type WireJson } from '../../kernel';
import type { CompiledEntity, EntityRegistry, EntityService, EntitySession, FieldDef } from '../entity-core';
import { conditionPaths, type Condition } from '../entity-core';
import { envelope } from './envelope';
import { returnedError } from './errors';
import { buildQuery, parseFilters, type FilterContext } from './filters';
import { optionValue, parseOptions, resolvePath, type GetOptions } from './params';
import { KeptReturnColumns, resolveColumns, type ReturnColumns } from './return-columns';
import { wireEnvelope, wireRecords, wireValue, type WireColumn } from './wire-rows';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export abstract class Api3Reads {
  /** The meta action get's `options.metadata` appends (defined with the other meta actions). */
  abstract getfields(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown>;

  private readonly kept: KeptReturnColumns;

  constructor(
    protected registry: EntityRegistry,
    protected service: EntityService,
  ) {
    this.kept = new KeptReturnColumns(() => registry.optionsVersion);
  }

  protected session(ctx: ActionContext): EntitySession {
    return { db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: ctx.trusted, api: 3 };
  }

  protected fc(ctx: ActionContext): FilterContext {
    return { db: ctx.db, registry: this.registry, principal: ctx.principal };
  }

  // ---------------------------------------------------------------- reads

  /** Runs a get and returns wire-form records plus the parsed options. */
  /** Options and conditions of a read: entity beforeGet taps, filters, then get defaults (e.g. Contact's trash). */
  protected async conditions(
    e: CompiledEntity,
    params: Params,
    ctx: ActionContext,
    over: Partial<GetOptions> = {},
  ): Promise<{ o: GetOptions; where: Condition[] }> {
    const { params: p, where: extra } = this.service.beforeGet(e, params, this.session(ctx));
    const o = { ...parseOptions(e, p, this.registry), ...over };
    const where = [...(await parseFilters(this.fc(ctx), e, p, o.or)), ...extra];
    for (const f of withGetDefaults(e)) {
      if (
        !where.some((w) => 'path' in w && w.path === f.name) &&
        ![f.name, f.uniqueName, ...(f.aliases ?? [])].some((k) => k && p[k] !== undefined)
      ) {
        where.push({ path: f.name, op: '=', value: f.getDefault ?? f.v3GetDefault });
      }
    }
    return { o, where };
  }

  /** The get's columns: kept from an earlier get with the same `return` list (return-columns.ts), or resolved. */
  private async columns(entity: CompiledEntity, options: GetOptions, ctx: ActionContext): Promise<ReturnColumns> {
    const key = this.kept.key(entity, options.return, ctx.principal);
    const kept = key === undefined ? undefined : this.kept.get(key, entity);
    if (kept) return kept;
    const defaults = () => entity.defaultReturn ?? this.service.store.defaultSelect(entity);
    return this.kept.made(key, () =>
      resolveColumns(this.registry, ctx.db, entity, options.return, defaults, ctx.principal),
    );
  }

  async select(
    entity: CompiledEntity,
    params: Params,
    ctx: ActionContext,
    over: Partial<GetOptions> = {},
    wire?: ActionContext['wire'],
  ): Promise<{ rows: Row[]; o: GetOptions; wired?: WireJson }> {
    const { o: options, where } = await this.conditions(entity, params, ctx, over);
    const { columns: out, selectPaths, labelMaps, labelTexts } = await this.columns(entity, options, ctx);
    const query = buildQuery(where, options, selectPaths);
    await this.checkJoins(entity, query, ctx);
    if (wire === 'json-database' && !options.isCount) {
      // The records rendered by PostgreSQL (wire-rows.ts), when every column can be; else the rows below.
      const render = {
        keys: out.map((column) => column.key),
        emptyNulls: entity.nulls === 'empty',
        labels: out.map((column) => labelTexts.get(column.key) ?? null),
      };
      const select = out.map((column) => column.field.labelOf ?? column.path);
      const json = await this.service.getJson(this.session(ctx), entity, { ...query, select }, render);
      const wired = json && wireEnvelope(json, !!options.sequential);
      if (wired) return { rows: [], o: options, wired };
    }
    const raw = options.isCount
      ? { paths: [], rows: [] }
      : await this.service.getRows(this.session(ctx), entity, query);
    const emptyNulls = entity.nulls === 'empty';
    // Per column, worked out once: where the value comes from, and its label map for option labels.
    const at = new Map(raw.paths.map((p, i) => [p, i]));
    const cols: WireColumn[] = out.map((x) => ({
      key: x.key,
      from: at.get(x.field.labelOf ?? x.path) ?? -1,
      labels: x.field.labelOf ? labelMaps.get(x.key)! : undefined,
      json: x.field.type === 'Json' && !x.field.v3Structure,
    }));
    if (wire && !options.isCount) {
      const wired = wireRecords(cols, raw.rows, emptyNulls, !!options.sequential);
      if (wired) return { rows: [], o: options, wired };
    }
    const rows = raw.rows.map((row) => {
      const rec: Row = {};
      for (const col of cols) {
        const value = wireValue(col, col.from < 0 ? undefined : row[col.from], emptyNulls);
        if (value !== undefined) rec[col.key] = value;
      }
      return rec;
    });
    return { rows, o: options };
  }

  protected async checkJoins(
    entity: CompiledEntity,
    query: ReturnType<typeof buildQuery>,
    ctx: ActionContext,
  ): Promise<void> {
    const paths = [
      ...(query.select ?? []).map((item) => (typeof item === 'string' ? item : item.path)),
      ...(query.sort ?? []).map((s) => s.path),
      ...(query.where ?? []).flatMap(conditionPaths),
    ];
    await this.service.checkJoins(
      this.session(ctx),
      entity,
      paths,
      3,
      (joined, prefix) =>
        new KernelError('E_FORBIDDEN', `Authorization failed to join onto ${joined} api in parameter ${prefix}`, {
          details: { error_code: 'unauthorized' },
        }),
    );
  }

  async get(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const md = optionValue(p, 'metadata');
    const wantsFields = Array.isArray(md) ? md.includes('fields') : md === 'fields';
    const { rows, o, wired } = await this.select(e, p, ctx, {}, wantsFields ? undefined : ctx.wire);
    if (o.isCount) return this.getcount(e, p, ctx);
    if (wired) return wired;
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

  async getvalue(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<unknown> {
    const ret =
      typeof params.return === 'string'
        ? params.return.trim()
        : Array.isArray(params.return) && params.return.length === 1
          ? String(params.return[0])
          : '';
    if (!ret || ret.includes(','))
      throw returnedError('missing param return=field you want to read the value of', {
        error_type: 'mandatory_missing',
        missing_param: 'return',
      });
    const rec = await this.getsingle(entity, { ...params, return: ret }, ctx);
    const resolved = resolvePath(this.registry, entity, ret, 'name');
    const key =
      resolved && !ret.includes('.')
        ? entity.uniqueNamesOnGet && resolved.field.uniqueName
          ? resolved.field.uniqueName
          : resolved.field.name
        : ret;
    if (!(key in rec)) throw returnedError(`field ${ret} unset or not existing`, { invalid_field: ret });
    return rec[key];
  }

  async getcount(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<number> {
    const { where } = await this.conditions(e, p, ctx);
    const q = { where };
    await this.checkJoins(e, q, ctx);
    return this.service.count(this.session(ctx), e, q);
  }
}

/** An entity's fields with a get default (e.g. Contact's `is_deleted`), worked out once per metadata object. */
const getDefaultFields = new WeakMap<CompiledEntity, FieldDef[]>();
function withGetDefaults(entity: CompiledEntity): FieldDef[] {
  let fields = getDefaultFields.get(entity);
  if (!fields) {
    fields = entity.fields.filter((f) => (f.getDefault ?? f.v3GetDefault) !== undefined);
    getDefaultFields.set(entity, fields);
  }
  return fields;
}
