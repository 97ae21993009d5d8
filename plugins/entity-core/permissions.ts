/** The per-entity permission lookup (reference §6.1/§6.2), shared by the APIv3 and APIv4 generic actions. */
import type { Permission } from '../../kernel';
import type { EntityRegistry } from './registry';

const snakes = new Map<string, string>();

/** `GroupContact` → `group_contact` (entity names repeat on every call: remembered, up to a bound). */
export function snake(entity: string): string {
  let name = snakes.get(entity);
  if (name === undefined) {
    name = entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    if (snakes.size < 2000) snakes.set(entity, name);
  }
  return name;
}

/**
 * The permission an entity's map gives an action: the action's own key, else its generic family
 * (`get*` → get, `del*`/replace → delete, `upd*`/setvalue → update, getfields/getoptions → meta), else
 * `default`. APIv3 `create` with an id counts as `update`; APIv4 passes its action names as they are
 * (`save` falls to `default` unless the map names it; callers map it first).
 */
export function permissionFor(
  registry: EntityRegistry,
  entity: string,
  action: string,
  params: Record<string, unknown> = {},
): Permission {
  const found = registry.find(entity);
  const map: Record<string, Permission | undefined> = {
    meta: 'access CRM',
    default: 'administer CRM',
    ...(found?.permissions ?? {}),
  };
  let verb = action.toLowerCase();
  if (verb === 'create' && (params.id || params[`${snake(entity)}_id`])) verb = 'update';
  if (map[verb] !== undefined) return map[verb]!;
  let generic = 'default';
  if (verb === 'replace' || verb.startsWith('del')) generic = 'delete';
  else if (verb === 'setvalue' || verb.startsWith('upd')) generic = 'update';
  else if (['getfields', 'getfield', 'getspec', 'getoptions'].includes(verb)) generic = 'meta';
  else if (verb.startsWith('get')) generic = 'get';
  return map[generic] ?? map.default!;
}
