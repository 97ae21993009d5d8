/** The generic APIv4 actions as data: names, descriptions, param schemas, getFields vocabularies, permissions. */
import type { Permission } from '../../kernel';
import { permissionFor, type EntityRegistry } from '../entity-core';
import { AUTOCOMPLETE_SCHEMA } from './autocomplete';

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
  'autocomplete',
] as const;
export type ActionName = (typeof ACTIONS)[number];
export const WRITES = new Set<string>(['create', 'update', 'save', 'delete', 'replace']);

export const DESCRIPTIONS: Record<ActionName, string> = {
  get: 'Get records (select, where, orderBy, limit, offset, joins, groupBy, having, aggregates, row_count)',
  create: 'Create one record from values',
  update: 'Update every record matching where with values',
  save: 'Create or update several records (records, defaults, match)',
  delete: 'Delete every record matching where',
  replace: 'Replace the records matching where with records (saves them, deletes the rest)',
  getFields: 'Field metadata in the APIv4 shape',
  getActions: 'The actions the caller may run on this entity',
  checkAccess: 'Whether the caller may run an action with these values',
  autocomplete: 'A page of {id, label} records whose search field contains input (entity-reference widgets)',
};

const list = { type: 'array' } as const;
const obj = { type: 'object' } as const;
export const common = { checkPermissions: { type: 'boolean' }, chain: obj, debug: {}, language: { type: 'string' } };
export const SCHEMAS: Record<ActionName, object> = {
  get: {
    select: { type: 'array', items: { type: 'string' } },
    where: list,
    orderBy: obj,
    limit: { type: 'integer', minimum: 0 },
    offset: { type: 'integer', minimum: 0 },
    join: list,
    groupBy: { type: 'array', items: { type: 'string' } },
    having: list,
  },
  create: { values: obj },
  update: { values: obj, where: list, reload: { type: 'boolean' } },
  save: {
    records: { type: 'array', items: obj },
    defaults: obj,
    match: { type: 'array', items: { type: 'string' } },
    reload: { type: 'boolean' },
  },
  delete: { where: list, useTrash: { type: 'boolean' } },
  replace: {
    records: { type: 'array', items: obj },
    defaults: obj,
    where: list,
    match: { type: 'array', items: { type: 'string' } },
  },
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
  autocomplete: AUTOCOMPLETE_SCHEMA,
};

export const DATA_TYPES: Record<string, string> = {
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
export const INPUT_TYPES: Record<string, string> = {
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
  const permissionOf = (a: string) => permissionFor(registry, entity, a);
  const own =
    registry.find(entity)?.permissions?.[action.toLowerCase()] ?? registry.find(entity)?.permissions?.[action];
  if (own !== undefined) return own; // the entity's map names this action itself
  switch (action.toLowerCase()) {
    case 'save':
      return { allOf: [permissionOf('create'), permissionOf('update')] };
    case 'replace':
      return { allOf: [permissionOf('create'), permissionOf('update'), permissionOf('delete')] };
    case 'checkaccess':
      return 'public';
    case 'autocomplete':
      return permissionOf('get');
    default:
      return permissionOf(action);
  }
}
