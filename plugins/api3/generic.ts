/**
 * The generic APIv3 actions, written once over entity metadata (entity `'*'`): get, getsingle,
 * getvalue, getcount, create, delete, replace, validate, getrefcount, getlist, getoptions, getfields,
 * getactions, getunique, and the deprecated setvalue and update.
 */
import { CONTROL_PARAMS_SCHEMA } from './control-params';
import { type ActionContext, type ActionRegistrar } from '../../kernel';
import type { CompiledEntity, EntityService } from '../entity-core';
import { permissionFor, referenceCounts } from '../entity-core';
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
  const generic = new Generic(registry, service);
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
      handler: (params: Params, ctx: ActionContext) => generic.run(action, registry.get(ctx.entity), params, ctx),
    });
  }
}

/** The generic actions: the reads and writes of {@link Api3Writes}, and the meta actions. */
class Generic extends Api3Writes {
  run(action: (typeof ACTIONS)[number], entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<unknown> {
    switch (action) {
      case 'get':
        return this.get(entity, params, ctx);
      case 'getsingle':
        return this.getsingle(entity, params, ctx);
      case 'getvalue':
        return this.getvalue(entity, params, ctx);
      case 'getcount':
        return this.getcount(entity, params, ctx);
      case 'create':
        return this.create(entity, params, ctx);
      case 'delete':
        return this.delete(entity, params, ctx);
      case 'replace':
        return this.replace(entity, params, ctx);
      case 'validate':
        return this.validate(entity, params, ctx);
      case 'getrefcount':
        return this.getrefcount(entity, params, ctx);
      case 'getlist':
        return this.getlist(entity, params, ctx);
      case 'getoptions':
        return this.getoptions(entity, params, ctx);
      case 'getfields':
        return this.getfields(entity, params, ctx);
      case 'getactions':
        return this.getactions(entity, ctx);
      case 'getunique':
        return Promise.resolve(this.getunique(entity));
      case 'setvalue':
        return this.setvalue(entity, params, ctx);
      case 'update':
        return this.update(entity, params, ctx);
    }
  }

  // ---------------------------------------------------------------- meta

  async getrefcount(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const id = this.idOf(e, p);
    if (id === undefined) throw mandatoryMissing(['id']);
    const counts = await referenceCounts(ctx.db, this.registry, e, id);
    return envelope(counts.map((c) => ({ ...c })) as Row[], { sequential: true });
  }

  async getlist(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<unknown> {
    const labelField = String(
      params.label_field ??
        entity.labelField ??
        ['sort_name', 'title', 'label', 'name', 'subject'].find((f) => entity.byName.has(f)) ??
        'id',
    );
    const searchField = String(
      params.search_field ??
        ['sort_name', 'title', 'label', 'name', 'subject'].find((f) => entity.byName.has(f)) ??
        labelField,
    );
    const idField = String(params.id_field ?? 'id');
    for (const field of [labelField, searchField, idField])
      if (!entity.lookup.get(field)) throw invalid(`Unknown field ${field} for getlist`);
    const pageSize = 15;
    const page = Math.max(1, Number(params.page_num ?? 1) || 1);
    const extra = params.params && typeof params.params === 'object' ? (params.params as Params) : {};
    const filter: Params = {
      ...extra,
      return: [idField, labelField],
      options: { limit: pageSize + 1, offset: (page - 1) * pageSize, sort: labelField },
    };
    if (params.id !== undefined && params.id !== '')
      filter[idField] = Array.isArray(params.id) ? { IN: params.id } : params.id;
    else if (params.input !== undefined && params.input !== '')
      filter[searchField] = { LIKE: `${truthy(params.add_wildcard) ? '%' : ''}${String(params.input)}%` };
    const { rows } = await this.select(entity, filter, ctx, { sequential: true });
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

  async getfields(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<unknown> {
    let action = String(params.api_action ?? params.action ?? 'get').toLowerCase();
    if (action === 'getvalue' || action === 'getcount') action = 'get';
    const keyed: Record<string, Row> = {};
    const getOptions = optionValue(params, 'get_options');
    const snakeName = snake(entity.name);
    if (action === 'delete') {
      keyed.id = {
        name: 'id',
        title: `${entity.name} ID`,
        'api.required': 1,
        'api.aliases': [`${snakeName}_id`],
        type: 1,
      };
      return scalarEnvelope(keyed);
    }
    const byUnique = action.startsWith('get');
    const perms = ctx.principal.permissions;
    for (const field of entity.fields) {
      if (!byUnique && !field.custom && (field.related || field.labelOf || field.via)) continue;
      if (field.secret && !perms.has('*') && !field.secret.some((x) => perms.has(x))) continue;
      const spec: Row = { name: field.name, type: TYPE_CODES[field.type] ?? 2, title: field.title };
      if (field.description) spec.description = field.description;
      if (field.required) spec.required = true;
      if (field.maxlength) spec.maxlength = field.maxlength;
      if (!field.related && !field.labelOf && !field.via) spec.where = `${entity.table}.${field.column ?? field.name}`;
      spec.table_name = entity.table;
      spec.entity = entity.name;
      if (field.fk) spec.FKApiName = field.fk;
      if (field.optionGroup) spec.pseudoconstant = { optionGroupName: field.optionGroup };
      if (field.pseudoEntity)
        spec.pseudoconstant = {
          table: this.registry.get(field.pseudoEntity.entity).table,
          keyColumn: 'id',
          labelColumn: field.pseudoEntity.labelField,
        };
      if (field.serialize) spec.serialize = 1;
      if (field.uniqueName && field.uniqueName !== field.name) spec.uniqueName = field.uniqueName;
      // A custom field: its own attributes (custom_group_id, data_type, html_type…), as the reference lists them.
      Object.assign(spec, field.custom ?? {}, { is_core_field: !field.custom });
      if (field.apiRequired && action !== 'get' && !byUnique) spec['api.required'] = 1;
      if (field.apiDefault !== undefined && !byUnique) spec['api.default'] = field.apiDefault;
      if (field.getDefault !== undefined && byUnique) spec['api.default'] = field.getDefault;
      if (field.v3GetDefault !== undefined && byUnique) spec['api.default'] = field.v3GetDefault;
      const aliases = [...(field.aliases ?? [])];
      if (field.name === 'id' && !aliases.includes(`${snakeName}_id`)) aliases.unshift(`${snakeName}_id`);
      if (aliases.length) spec['api.aliases'] = aliases;
      if (
        getOptions &&
        (getOptions === 'all' || getOptions === field.name) &&
        (field.optionGroup || field.pseudoEntity || field.options)
      ) {
        const opts = (await this.registry.optionsFor(ctx.db, field)) ?? [];
        spec.options = truthy(params.sequential)
          ? opts.map((o) => ({ key: o.value, value: o.label }))
          : Object.fromEntries(opts.map((o) => [o.value, o.label]));
      }
      const key = byUnique && field.uniqueName && field.name !== 'id' ? field.uniqueName : field.name;
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
