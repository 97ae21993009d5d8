/**
 * Group's save rules (name and public title filled from the title, group_type as an integer or a list,
 * created_id / modified_id), GroupNesting keeping Group.parents / children in step, GroupContact's APIv3
 * get default (status Added) and Contact.get's `group` filter.
 */
import {
  listFilterConditions,
  listFilterItems,
  type ChangeBus,
  type Condition,
  type Entities,
  type EntityRegistry,
  type SaveContext,
} from '../entity-core';
import { criteria, smartMembers, SMART_GROUPS_TOPIC, type SmartGroups } from './smart-groups';

type Row = Record<string, unknown>;
const GROUP_KEYS = ['group', 'filter.group_id', 'filter_group_id'];
const has = (v: unknown) => v !== undefined && v !== null && v !== '';

/** A name from a title: letters, digits and underscores, at most 64 characters. */
export function nameFromTitle(title: string): string {
  return (
    title
      .replace(/[^a-zA-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 64) || 'group'
  );
}

/** group_type as the reference takes it (4.7.11): an integer, a list, or a comma-separated string. */
export function groupTypes(value: unknown): unknown {
  if (typeof value === 'number') return [value];
  if (typeof value === 'string') return value.split(/[,\x01]/).filter(Boolean);
  return value;
}

async function syncNesting(entities: Entities, groupIds: unknown[]) {
  for (const id of new Set(groupIds.filter(has).map(Number))) {
    const up = await entities.get('GroupNesting', { where: { child_group_id: id }, select: ['parent_group_id'] });
    const down = await entities.get('GroupNesting', { where: { parent_group_id: id }, select: ['child_group_id'] });
    const list = (rows: Row[], key: string) => (rows.length ? rows.map((r) => String(r[key])) : null);
    if (await entities.count('Group', { id }))
      await entities.save('Group', {
        id,
        parents: list(up, 'parent_group_id'),
        children: list(down, 'child_group_id'),
      });
  }
}

/**
 * Contact.get `group` (APIv3): an id, a name or title, a list, or `{IN: [...]}` / `{'=': x}`. A contact matches
 * when Added to one of the groups, or matches the criteria of one of the smart groups and was not Removed
 * from it.
 */
/** Filters on `groups` meaning "in one of these groups", and their negations. */
const MATCHES = new Set(['=', 'IN', 'CONTAINS']);
const NEGATIONS = new Set(['!=', '<>', 'NOT IN', 'NOT CONTAINS']);

export function groupFilter(value: unknown, smart?: SmartGroups): Condition | null {
  const items = listFilterItems(value);
  if (!items) return null;
  const ors = listFilterConditions(items, 'group_id', ['group_id.name', 'group_id.title']);
  if (!ors.length) return null;
  const added: Condition = { path: 'status', op: '=', value: 'Added' };
  const members: Condition = { exists: { entity: 'GroupContact', field: 'contact_id', where: [added, { or: ors }] } };
  const smartOnes = items
    .flatMap((item) => smart?.matching(item) ?? [])
    .map((group): Condition => ({ and: smartMembers(group) }));
  return smartOnes.length ? { or: [members, ...smartOnes] } : members;
}

export function extendGroups(entities: EntityRegistry, smart: SmartGroups, bus: () => ChangeBus): void {
  // A write to a group or a saved search reloads the smart groups' criteria (here, then on every instance).
  const reload = async (_row: Row, sc: SaveContext) => {
    await smart.load(sc.entities);
    // The bus also tells this instance at once, which would re-read the data as committed before this write:
    // that delivery (made synchronously by announce) is muted; PostgreSQL's after-commit notice is not.
    smart.muted = true;
    const announced = bus().announce(sc.db, SMART_GROUPS_TOPIC);
    smart.muted = false;
    await announced;
  };
  entities.extend('SavedSearch', {
    beforeSave(values, sc) {
      let params = values.api_params;
      if (typeof params === 'string') params = JSON.parse(params) as unknown;
      const entity = String(values.api_entity ?? sc.existing?.api_entity ?? 'Contact');
      if (params && typeof params === 'object' && entity === 'Contact')
        criteria(entities.get('Contact'), (params as Row).where);
      // Who created and last changed it (4.7.0's audit fields), and when.
      if (!sc.existing && !has(values.created_id) && sc.principal.contactId) values.created_id = sc.principal.contactId;
      if (sc.principal.contactId) values.modified_id = sc.principal.contactId;
      if (sc.existing) values.modified_date = new Date();
      return values;
    },
    afterSave: reload,
    afterDelete: reload,
  });
  entities.extend('Group', {
    afterSave: reload,
    afterDelete: reload,
    beforeSave(values, sc) {
      if (values.group_type !== undefined) values.group_type = groupTypes(values.group_type);
      if (!sc.existing) {
        const title = String(values.title ?? values.frontend_title ?? values.name ?? '');
        if (!has(values.title)) values.title = title;
        if (!has(values.name)) values.name = nameFromTitle(title);
        if (!has(values.frontend_title)) values.frontend_title = title;
        if (!has(values.created_id) && sc.principal.contactId) values.created_id = sc.principal.contactId;
      }
      if (sc.principal.contactId) values.modified_id = sc.principal.contactId;
      return values;
    },
  });

  const nesting = {
    afterSave: (row: Row, sc: { entities: Entities }) =>
      syncNesting(sc.entities, [row.child_group_id, row.parent_group_id]),
    afterDelete: (row: Row, sc: { entities: Entities }) =>
      syncNesting(sc.entities, [row.child_group_id, row.parent_group_id]),
  };
  entities.extend('GroupNesting', nesting);

  entities.extend('GroupContact', {
    // APIv3's get shows memberships with status Added unless a status is asked for (api/v3/GroupContact.php).
    beforeGet(params, { api }) {
      if (api !== 3 || has(params.status)) return undefined;
      return { params: { ...params, status: 'Added' } };
    },
  });

  entities.extend('Contact', {
    // APIv4 `groups` (and any read filtering on it): a smart group named counts its saved search's matches.
    expandFilter(filter) {
      if (filter.path !== 'groups') return undefined;
      const negated = NEGATIONS.has(filter.op);
      if (!negated && !MATCHES.has(filter.op)) return undefined;
      const items = Array.isArray(filter.value) ? filter.value : [filter.value];
      if (!items.some((item) => smart.matching(item).length)) return undefined;
      const condition = groupFilter(items, smart);
      return condition && negated ? { not: condition } : (condition ?? undefined);
    },
    // `group`, or the legacy `filter.group_id` / `filter_group_id`.
    beforeGet(params, { api }) {
      const key = GROUP_KEYS.find((name) => has(params[name]));
      if (api !== 3 || !key) return undefined;
      const rest = Object.fromEntries(Object.entries(params).filter(([name]) => !GROUP_KEYS.includes(name)));
      const condition = groupFilter(params[key], smart);
      return { params: rest, where: condition ? [condition] : [] };
    },
  });
}
