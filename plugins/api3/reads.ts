/**
 * What the generic APIv3 actions share (the service session, filters from params) and the reads: get,
 * getsingle, getvalue, getcount, as translators from APIv3 params to the entity service and back.
 */
import { KernelError, type ActionContext } from '../../kernel';
import type { CompiledEntity, EntityRegistry, EntityService, EntitySession, FieldDef } from '../entity-core';
import { conditionPaths, type Condition } from '../entity-core';
import { envelope, stringifyLeaves } from './envelope';
import { returnedError } from './errors';
import { buildQuery, parseFilters, type FilterContext } from './filters';
import { optionValue, parseOptions, resolvePath, type GetOptions } from './params';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export abstract class Api3Reads {
  /** The meta action get's `options.metadata` appends (defined with the other meta actions). */
  abstract getfields(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown>;

  constructor(
    protected registry: EntityRegistry,
    protected service: EntityService,
  ) {}

  protected session(ctx: ActionContext): EntitySession {
    return { db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: ctx.trusted };
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

  protected async checkJoins(
    e: CompiledEntity,
    query: ReturnType<typeof buildQuery>,
    ctx: ActionContext,
  ): Promise<void> {
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
}
