/** The per-entity permission lookup (reference §6.1/§6.2), shared by the APIv3 and APIv4 generic actions. */
import type { Permission } from '../../kernel';
import type { EntityRegistry } from './registry';

/** `GroupContact` → `group_contact`. */
export function snake(entity: string): string {
  return entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
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
  const e = registry.find(entity);
  const map: Record<string, Permission | undefined> = {
    meta: 'access CRM',
    default: 'administer CRM',
    ...(e?.permissions ?? {}),
  };
  let a = action.toLowerCase();
  if (a === 'create' && (params.id || params[`${snake(entity)}_id`])) a = 'update';
  if (map[a] !== undefined) return map[a]!;
  let generic = 'default';
  if (a === 'replace' || a.startsWith('del')) generic = 'delete';
  else if (a === 'setvalue' || a.startsWith('upd')) generic = 'update';
  else if (['getfields', 'getfield', 'getspec', 'getoptions'].includes(a)) generic = 'meta';
  else if (a.startsWith('get')) generic = 'get';
  return map[generic] ?? map.default!;
}
