/**
 * The generic APIv4 actions, written once over entity metadata (entity `'*'`, version 4): get, create,
 * update, save, delete, replace, getFields, getActions, checkAccess; every one accepts `chain`.
 */
import { isKernelError, type ActionContext, type ActionRegistrar } from '../../kernel';
import type { CompiledEntity, EntityService, FieldDef } from '../entity-core';
import { invalid, mayRead, v4Fields } from './params';
import type { Api4Result, Row } from './types';
import { applyIndex, filterRows, optionId, pick, substitute } from './rows';
import {
  ACTIONS,
  DATA_TYPES,
  DESCRIPTIONS,
  INPUT_TYPES,
  SCHEMAS,
  WRITES,
  common,
  type ActionName,
} from './action-specs';
import type { Params } from './base';
import { Api4Saves } from './saves';
import { autocomplete } from './autocomplete';

import { v4Permission } from './action-specs';

export { v4Permission };

export function defineGenericActions(actions: ActionRegistrar, service: EntityService): void {
  const registry = service.registry;
  const generic = new Generic(registry, service);
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
        const { values, countMatched } = await generic.run(action, e, params, ctx);
        if (params.chain) await generic.chain(values, params.chain, ctx);
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

/** The generic actions: the reads and writes of {@link Api4Saves}, the meta actions, and chaining. */
class Generic extends Api4Saves {
  run(
    action: ActionName,
    entity: CompiledEntity,
    params: Params,
    ctx: ActionContext,
  ): Promise<{ values: Row[]; countMatched?: number }> {
    switch (action) {
      case 'get':
        return this.get(entity, params, ctx);
      case 'create':
        return this.create(entity, params, ctx);
      case 'update':
        return this.update(entity, params, ctx);
      case 'save':
        return this.save(entity, params, ctx);
      case 'delete':
        return this.delete(entity, params, ctx);
      case 'replace':
        return this.replace(entity, params, ctx);
      case 'getFields':
        return this.getFields(entity, params, ctx);
      case 'getActions':
        return this.getActions(entity, params, ctx);
      case 'checkAccess':
        return this.checkAccess(entity, params, ctx);
      case 'autocomplete':
        return autocomplete(this, entity, params, ctx);
    }
  }

  // ---------------------------------------------------------------- meta

  async getFields(entity: CompiledEntity, params: Params, ctx: ActionContext) {
    const action = String(params.action ?? 'get');
    const loadOptions = params.loadOptions;
    const out: Row[] = [];
    // A custom group's reference (`listFields`) is listed as its fields, `<group>.<field>`, as the reference does.
    const listed = v4Fields(entity).flatMap((field) =>
      field.listFields && field.fk
        ? v4Fields(this.registry.get(field.fk))
            .filter((sub) => sub.name !== 'id' && sub.name !== 'entity_id')
            .map((sub) => ({ field: sub, name: `${field.name}.${sub.name}`, type: 'Custom' }))
        : [{ field, name: field.name, type: 'Field' }],
    );
    for (const { field, name, type } of listed) {
      if (!mayRead(field, ctx.principal, ctx.trusted)) continue;
      const spec: Row = {
        name,
        title: field.title,
        description: field.description ?? null,
        type,
        entity: entity.name,
        data_type: DATA_TYPES[field.type] ?? 'String',
        input_type:
          field.optionGroup || field.pseudoEntity || field.options
            ? 'Select'
            : field.fk
              ? 'EntityRef'
              : (INPUT_TYPES[field.type] ?? 'Text'),
        required: action === 'create' ? !!field.apiRequired : false,
        nullable: !field.required,
        readonly: !!field.readonly || field.name === 'id',
        default_value: field.apiDefault ?? null,
        fk_entity: field.fk ?? null,
        serialize: field.serialize ? 1 : null,
        column_name: field.column ?? field.name,
        maxlength: field.maxlength ?? null,
        options: false as unknown,
      };
      if (field.optionGroup || field.pseudoEntity || field.options)
        spec.options = await this.options(field, loadOptions, ctx);
      out.push(spec);
    }
    return { values: pick(filterRows(out, params.where), params.select) };
  }

  /** getFields' `options`: true, or loaded (`loadOptions`: `{value: label}`, or rows of the named keys). */
  private async options(field: FieldDef, loadOptions: unknown, ctx: ActionContext): Promise<unknown> {
    if (!loadOptions) return true;
    const opts = (await this.registry.optionsFor(ctx.db, field)) ?? [];
    if (!Array.isArray(loadOptions)) return Object.fromEntries(opts.map((o) => [o.value, o.label]));
    const keys = (loadOptions as string[]).filter((k) => ['id', 'name', 'label'].includes(k));
    return opts.map((o) =>
      Object.fromEntries(keys.map((k) => [k, k === 'id' ? optionId(field, o.value) : (o as unknown as Row)[k]])),
    );
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
  private async rowAccessAllows(
    entity: CompiledEntity,
    action: string,
    values: Row,
    ctx: ActionContext,
  ): Promise<boolean> {
    const name = action.toLowerCase();
    const creates = name === 'create' || (name === 'save' && values.id === undefined);
    const operation = name === 'delete' ? 'delete' : ['update', 'save'].includes(name) ? 'edit' : undefined;
    const session = this.session(ctx);
    try {
      if (creates) await this.service.checkWrite(session, entity, 'create', { proposed: values });
      else if ((operation || name === 'get') && values.id !== undefined) {
        const id = Number(values.id);
        if (!Number.isSafeInteger(id)) return false;
        const visible = await this.service.get(session, entity, {
          where: [{ path: 'id', op: '=', value: id }],
          select: ['id'],
        });
        if (!visible.length) return false;
        if (operation) await this.service.checkWrite(session, entity, operation, { id });
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
        const result = (await ctx.call(entity, action, sub, { version: 4 })) as Api4Result;
        row[name] = applyIndex(result.values, index);
      }
    }
  }
}
