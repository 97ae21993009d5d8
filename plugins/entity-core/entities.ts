/** The entity service bound to one session: lifecycle code's `sc.entities`, and trusted in-process callers. */
import { KernelError } from '../../kernel';
import { present, type EntityService, type EntitySession } from './service';
import type { Condition, Query } from './conditions';
import { createLinked } from './save-linked';
import type { CompiledEntity, FieldDef } from './types';
import { unknownField } from './write-values';

type Row = Record<string, unknown>;

/** A read through {@link Entities}: conditions as store conditions, or `{field: value}` equalities. */
export interface EntityQuery {
  where?: Condition[] | Row;
  select?: string[];
  orderBy?: Query['sort'];
  limit?: number;
  offset?: number;
}

/** The service bound to one session: what lifecycle code gets as `sc.entities`. */
export interface Entities {
  get(entity: string, query?: EntityQuery): Promise<Row[]>;
  count(entity: string, where?: EntityQuery['where']): Promise<number>;
  /**
   * Creates, or updates when `values.id` is given; the record also reaches the hooks as params. A key that is no
   * field of the entity, and that none of its lifecycle taps declares in `params`, is refused (E_INVALID_PARAMS).
   */
  save(entity: string, values: Row): Promise<Row>;
  /** Creates many records in a few statements (same rules as `save` without an id); stored rows in order. */
  saveMany(entity: string, records: Row[]): Promise<Row[]>;
  delete(entity: string, id: number): Promise<void>;
  /**
   * Creates records of several entities in one statement; a value `linkTo(i)` stands for the id of the call's
   * record i (an earlier one). Same rules as `save` without an id; the stored rows, in order (save-linked.ts).
   */
  createLinked(records: Array<{ entity: string; values: Row }>): Promise<Row[]>;
}

/** `{field: value}` → equalities (null → IS NULL); a list is taken as store conditions. */
function conditions(where: EntityQuery['where']): Condition[] {
  if (!where) return [];
  if (Array.isArray(where)) return where;
  return Object.entries(where).map(([path, value]) =>
    value === null ? { path, op: 'IS NULL' as const } : { path, op: '=' as const, value },
  );
}

/** Reads through {@link Entities} apply the entity's beforeGet conditions and get defaults (Contact's trash). */
function readQuery(
  service: EntityService,
  session: EntitySession,
  entity: CompiledEntity,
  where: EntityQuery['where'],
) {
  const conds = [...conditions(where), ...service.beforeGet(entity, {}, session).where];
  const mentioned = (field: FieldDef) => conds.some((c) => 'path' in c && c.path === field.name);
  for (const field of entity.fields)
    if (field.getDefault !== undefined && !mentioned(field))
      conds.push({ path: field.name, op: '=', value: field.getDefault });
  return conds;
}

export function bindEntities(service: EntityService, session: EntitySession): Entities {
  const entityOf = (name: string) => service.registry.get(name);
  return {
    get: (name, query = {}) => {
      const entity = entityOf(name);
      const where = readQuery(service, session, entity, query.where);
      return service.get(session, entity, { where, select: query.select, sort: query.orderBy, ...paging(query) });
    },
    count: (name, where) => {
      const entity = entityOf(name);
      return service.count(session, entity, { where: readQuery(service, session, entity, where) });
    },
    save: async (name, input) => {
      const entity = entityOf(name);
      const values = writable(entity, input);
      let existing: Row | null = null;
      if (present(values.id)) {
        existing = await service.byId(session, entity, Number(values.id));
        if (!existing) throw new KernelError('E_NOT_FOUND', `${entity.name} id ${String(values.id)} not found`);
      }
      return service.save(session, entity, values, { existing, params: input });
    },
    saveMany: async (name, records) => {
      const entity = entityOf(name);
      return service.saveMany(
        session,
        entity,
        records.map((input) => writable(entity, input)),
        { params: records },
      );
    },
    createLinked: async (records) =>
      createLinked(
        service,
        session,
        records.map(({ entity: name, values }) => ({
          entity: entityOf(name),
          values: writable(entityOf(name), values),
          params: values,
        })),
      ),
    delete: async (name, id) => {
      const entity = entityOf(name);
      const row = await service.byId(session, entity, id);
      if (!row) throw new KernelError('E_NOT_FOUND', `${entity.name} id ${id} not found`);
      await service.delete(session, entity, row);
    },
  };
}

/**
 * The keys of a record that are writable fields of the entity; the whole record reaches the hooks as params. A
 * key that is no field is refused unless a lifecycle tap of the entity declares it among its `params` (what its
 * hooks read besides fields): otherwise it would be neither written nor read, lost without a word.
 */
export function writable(entity: CompiledEntity, input: Row): Row {
  const values: Row = {};
  for (const key in input) {
    const value = input[key];
    // An undefined value is not sent (what `{...x, key: maybe}` leaves).
    if (value === undefined) continue;
    const field = entity.lookup.get(key);
    if (!field) {
      if (!entity.lifecycle.some((tap) => tap.params?.includes(key))) throw unknownField(entity, key);
      // Fields stored elsewhere (custom values, `via`) reach their taps as params only.
    } else if (!field.related && !field.labelOf && !field.via) values[field.name] = value;
  }
  return values;
}

function paging(query: EntityQuery): Pick<Query, 'limit' | 'offset'> {
  return { limit: query.limit, offset: query.offset };
}
