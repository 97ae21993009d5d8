/**
 * Entity.get: the entities this service has, from the registry — APIv3 answers their names (as the
 * reference's `civicrm_api3('Entity', 'get')`), APIv4 one record per entity with its description and keys.
 */
import type { ActionRegistrar } from '../../kernel';
import type { EntityRegistry } from './registry';

export function defineEntityActions(actions: ActionRegistrar, registry: EntityRegistry): void {
  actions.define({
    version: 3,
    entity: 'Entity',
    action: 'get',
    description: 'The names of the entities the service has',
    params: { type: 'object' },
    permission: 'access CRM',
    handler: () => {
      const names = registry.names(3).sort();
      return { is_error: 0, version: 3, count: names.length, values: names };
    },
  });
  actions.define({
    version: 4,
    entity: 'Entity',
    action: 'get',
    description: 'Every entity: name, title, description, type, primary key, label field, table and APIs',
    params: {
      type: 'object',
      additionalProperties: false,
      properties: { select: { type: 'array', items: { type: 'string' } }, checkPermissions: { type: 'boolean' } },
    },
    permission: 'access CRM',
    handler: (params) => {
      const select = (params as { select?: string[] }).select;
      return registry
        .names(4)
        .sort()
        .map((name) => {
          const entity = registry.get(name);
          const record: Record<string, unknown> = {
            name,
            title: name.replace(/([a-z])([A-Z])/g, '$1 $2'),
            description: entity.description ?? null,
            type: ['DAOEntity'],
            primary_key: ['id'],
            label_field: entity.labelField ?? null,
            table_name: entity.table,
            api_versions: entity.apis ?? [3, 4],
          };
          return select?.length
            ? Object.fromEntries(select.filter((key) => key in record).map((key) => [key, record[key]]))
            : record;
        });
    },
  });
}
