/**
 * APIv3 CustomValue (the reference's api/v3/CustomValue.php): get answers one entry per custom field of a
 * record, keyed by field id (`latest`, and the value under each record id — 0 for single-record groups);
 * create writes `custom_<id>`, `custom_<id>:<record>` and `custom_<group>:<field>` values. Row access is
 * the extended record's (the value tables follow it).
 */
import type { ActionContext, ActionRegistrar } from '../../kernel';
import { invalid, mandatoryMissing } from '../api3';
import type { EntityRegistry, EntityService } from '../entity-core';
import { extendedName } from './entities/CustomGroup';
import { parseCustomValues, writeCustomValues } from './custom-values';
import type { CustomData } from './runtime';

type Row = Record<string, unknown>;

function entityId(params: Row): number {
  const id = Number(params.entity_id);
  if (params.entity_id === undefined || params.entity_id === '') throw mandatoryMissing(['entity_id']);
  if (!Number.isInteger(id) || id <= 0) throw invalid('entity_id is not a valid integer');
  return id;
}

/** `entity_table` as the reference takes it: `Contact`, `civicrm_contact`, `Activity`… (default Contact). */
function entityOf(registry: EntityRegistry, params: Row): string {
  const given = String(params.entity_table ?? params.entity_type ?? '');
  if (!given) return 'Contact';
  const entity = registry.byTable(given) ?? registry.find(extendedName(given, (name) => !!registry.find(name)) ?? '');
  if (!entity) throw invalid(`Unknown entity_table ${given}`);
  return entity.name;
}

/** Field ids asked for: `return.custom_6: 1`, or `return: ['custom_6']`; none means all. */
function requested(params: Row): Set<number> {
  const keys = [
    ...Object.keys(params)
      .filter((key) => key.startsWith('return.') && params[key])
      .map((key) => key.slice(7)),
    ...(Array.isArray(params.return) ? params.return.map(String) : []),
  ];
  return new Set(
    keys
      .map((key) => /^custom_(\d+)$/.exec(key)?.[1])
      .filter(Boolean)
      .map(Number),
  );
}

export function defineCustomValueActions(
  actions: ActionRegistrar,
  custom: CustomData,
  registry: EntityRegistry,
  service: () => EntityService,
): void {
  const bound = (ctx: ActionContext) => service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope });
  actions.define({
    version: 3,
    entity: 'CustomValue',
    action: 'get',
    description: "A record's custom values, keyed by field id (entity_id; entity_table defaults to Contact)",
    params: { type: 'object', additionalProperties: true },
    permission: 'access CRM',
    async handler(params: Row, ctx: ActionContext) {
      const id = entityId(params);
      const entity = entityOf(registry, params);
      const wanted = requested(params);
      const entities = bound(ctx);
      const values: Record<string, Row> = {};
      const byGroup = new Map<string, Array<{ fieldId: number; name: string; multiple: boolean }>>();
      for (const [fieldId, found] of custom.meta.byId) {
        if (custom.extended(found.group)?.name !== entity || (wanted.size && !wanted.has(fieldId))) continue;
        byGroup.set(found.entity, [
          ...(byGroup.get(found.entity) ?? []),
          { fieldId, name: found.field.name, multiple: found.group.is_multiple },
        ]);
      }
      for (const [name, fields] of byGroup) {
        const rows = await entities.get(name, { where: { entity_id: id }, orderBy: [{ path: 'id', dir: 'ASC' }] });
        for (const row of rows)
          for (const field of fields) {
            const entry = (values[String(field.fieldId)] ??= { entity_id: String(id) });
            if (params.entity_table) entry.entity_table = entity;
            entry.latest = row[field.name];
            entry.id = String(field.fieldId);
            entry[field.multiple ? String(row.id) : '0'] = row[field.name];
          }
      }
      return { is_error: 0, version: 3, count: Object.keys(values).length, values };
    },
  });
  actions.define({
    version: 3,
    entity: 'CustomValue',
    action: 'create',
    description:
      'Sets custom values of a record: custom_<id>, custom_<id>:<record> (-1, -2…: new records), custom_<group>:<field>',
    params: { type: 'object', additionalProperties: true },
    permission: 'access CRM',
    writes: true,
    async handler(params: Row, ctx: ActionContext) {
      const id = entityId(params);
      const parsed = await parseCustomValues(custom, registry, ctx.db, params);
      if (!parsed.entity) throw invalid('No custom values given');
      if (!(await ctx.scope.cradle.api.can(parsed.entity, 'update', ctx.principal, { version: 3 })))
        throw invalid(`Permission denied to modify ${parsed.entity} records`);
      const entities = bound(ctx);
      if (!(await entities.count(parsed.entity, { id }))) throw invalid(`${parsed.entity} ${id} not found`);
      await writeCustomValues(entities, id, parsed.writes);
      return { is_error: 0, version: 3, count: 1, values: true };
    },
  });
}
