/**
 * The generic APIv3 actions, written once over entity metadata (entity `'*'`): get, getsingle,
 * getvalue, getcount, create, delete, replace, validate, getrefcount, getlist, getoptions, getfields,
 * getactions, getunique, and the deprecated setvalue and update.
 */
import { CONTROL_PARAMS_SCHEMA } from './control-params';
import { type ActionContext, type ActionRegistrar } from '../../kernel';
import type { CompiledEntity, EntityService } from '../entity-core';
import { permissionFor } from '../entity-core';
import { envelope, scalarEnvelope } from './envelope';
import { invalid, mandatoryMissing } from './errors';
import { optionValue, truthy } from './params';
import { snake } from './service';
import type { Params, Row } from './reads';
import { Api3Writes, DEPRECATED } from './writes';

export { DEPRECATED };

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
      params: CONTROL_PARAMS_SCHEMA,
      permission: (params: Params, entity: string) => permissionFor(registry, entity, action, params),
      writes: WRITES.has(action),
      entities: () => registry.names(3),
      handler: (params: Params, ctx: ActionContext) => g.run(action, registry.get(ctx.entity), params, ctx),
    });
  }
}

/** The generic actions: the reads and writes of {@link Api3Writes}, and the meta actions. */
class Generic extends Api3Writes {
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
