/**
 * Plans one query over entity metadata: an alias per FK path (inner when a filter uses it), related-record
 * joins, and conditions turned into knex calls. Identifiers come only from metadata; values are bound.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import {
  MAX_CONDITION_DEPTH,
  MAX_JOINS,
  type Condition,
  type Exists,
  type ExplicitJoin,
  type Filter,
} from './conditions';
import type { EntityRegistry } from './registry';
import { collectionCondition, collectionSelect } from './collections';
import { applyPlanned, refuseEncrypted } from './planned';
import type { CompiledEntity, FieldDef } from './types';
import {
  applyFkJoin,
  applyRelatedJoin,
  columnOf,
  explicitLink,
  invalidJoin,
  MAX_EXPLICIT_JOINS,
  type IdBound,
  type Join,
  type RelatedJoin,
} from './joins';

export { applyPlanned };

export interface Resolved {
  /** SQL alias.column to use. */
  ref: string;
  field: FieldDef;
  /** For a collection field in a select: the correlated subquery that reads it (`ref` is then empty). */
  expression?: { sql: string; bindings: Knex.Value[] };
}

/** A condition with its paths resolved (so unknown fields fail before any SQL is built). */
export type Planned =
  | { kind: 'filter'; filter: Filter; resolved: Resolved }
  | { kind: 'or' | 'and' | 'not'; items: Planned[] }
  | { kind: 'exists'; planner: Planner; where: Planned[]; inner?: string; outer?: string };

export function unknownField(path: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', `Unknown field ${path}`, {
    details: { error_code: 0, error_field: path },
  });
}

export class Planner {
  readonly joins = new Map<string, Join>();
  private related = new Map<string, RelatedJoin>();
  /** Bounds on the root's id the query's rows all satisfy (`rootIdBounds`), repeated in related joins. */
  idBounds: IdBound[] = [];
  /** Explicit joins by alias (also in `joins`, so row access restricts them as any join). */
  private explicit = new Map<string, Join>();
  private aliasCount = 0;
  /** Nested planners (EXISTS subqueries), so their aliases never clash with this one's. */
  private nestedCount = 0;

  /** `prefix` names this planner's aliases (`t`, `j1`… at the top; `e1_t`, `e1_j1`… in a subquery). */
  constructor(
    private readonly registry: EntityRegistry,
    readonly root: CompiledEntity,
    readonly prefix = '',
  ) {}

  get rootAlias(): string {
    return `${this.prefix}t`;
  }

  resolve(path: string, use: 'filter' | 'select' | 'sort'): Resolved {
    const parts = path.split('.');
    if (parts.length - 1 > MAX_JOINS) {
      throw new KernelError('E_FORBIDDEN', `Maximum number of joins exceeded in parameter ${path}`, {
        details: { error_code: 'unauthorized' },
      });
    }
    let entity = this.root;
    let alias = this.rootAlias;
    let joinPath = '';
    let start = 0;
    const explicit = parts.length > 1 ? this.explicit.get(parts[0]) : undefined;
    if (explicit) {
      // `<alias>.<field>`: a field of an explicitly joined entity (and FK hops on from it).
      [entity, alias, joinPath, start] = [explicit.entity, explicit.alias, parts[0], 1];
    }
    for (let hop = start; hop < parts.length - 1; hop++) {
      const field = entity.lookup.get(parts[hop]);
      if (!field || !field.fk || (field.collection && !field.collection.single)) throw unknownField(path);
      if (field.related) {
        // A computed reference to a related record (Contact's `email_primary`): its LEFT JOIN is the hop.
        const related = this.relatedJoin(alias, field);
        entity = related.entity;
        alias = related.alias;
        continue;
      }
      joinPath = joinPath ? `${joinPath}.${field.name}` : field.name;
      let join = this.joins.get(joinPath);
      if (!join) {
        const target = this.registry.get(field.fk);
        const joinAlias = `${this.prefix}j${++this.aliasCount}`;
        join = { alias: joinAlias, entity: target, from: alias, column: columnOf(field), inner: false };
        if (field.collection) join.expression = collectionSelect(this.registry, field, alias);
        this.joins.set(joinPath, join);
      }
      if (use === 'filter') join.inner = true;
      entity = join.entity;
      alias = join.alias;
    }
    const field = entity.lookup.get(parts[parts.length - 1]);
    if (!field) throw unknownField(path);
    if (field.related) return this.resolveRelated(alias, field);
    if (field.collection) {
      // Filters reach collections through plan() (EXISTS); they are selected, never sorted on.
      if (use !== 'select' || parts.length > 1) throw unknownField(path);
      return { ref: '', field, expression: collectionSelect(this.registry, field, alias) };
    }
    if (field.labelOf || field.via) throw unknownField(path);
    return { ref: `${alias}.${columnOf(field)}`, field };
  }

  /** A field read from a related record (Contact's primary email): one LEFT JOIN per related record. */
  private resolveRelated(alias: string, field: FieldDef): Resolved {
    const join = this.relatedJoin(alias, field);
    const target = join.entity.byName.get(field.related!.field)!;
    return { ref: `${join.alias}.${columnOf(target)}`, field };
  }

  private relatedJoin(alias: string, field: FieldDef): { alias: string; entity: CompiledEntity } {
    const related = field.related!;
    const key = `${alias}|${related.entity}|${related.fk}|${JSON.stringify(related.where ?? {})}`;
    let join = this.related.get(key);
    if (!join) {
      const entity = this.registry.get(related.entity);
      join = {
        alias: `${this.prefix}r${++this.aliasCount}`,
        entity,
        fk: related.fk,
        where: related.where ?? {},
        from: alias,
      };
      this.related.set(key, join);
    }
    return join;
  }

  /** Resolves a condition's paths (unknown fields and excess depth fail here). */
  plan(condition: Condition, depth = 0): Planned {
    if (depth > MAX_CONDITION_DEPTH)
      throw new KernelError('E_INVALID_PARAMS', `Conditions nested deeper than ${MAX_CONDITION_DEPTH} levels`, {
        details: { error_code: 0 },
      });
    if ('or' in condition) return { kind: 'or', items: condition.or.map((item) => this.plan(item, depth + 1)) };
    if ('and' in condition) return { kind: 'and', items: condition.and.map((item) => this.plan(item, depth + 1)) };
    if ('not' in condition) return { kind: 'not', items: [this.plan(condition.not, depth + 1)] };
    if ('exists' in condition) return this.planExists(condition.exists, depth);
    for (const tap of this.root.lifecycle) {
      const expanded = tap.expandFilter?.(condition);
      if (expanded) return this.plan(expanded, depth + 1);
    }
    const collected = this.root.lookup.get(condition.path);
    if (collected?.collection) return this.plan(collectionCondition(collected, condition), depth + 1);
    const resolved = this.resolve(condition.path, 'filter');
    refuseEncrypted(resolved.field, condition.path);
    return { kind: 'filter', filter: condition, resolved };
  }

  private planExists(exists: Exists, depth: number): Planned {
    const nested = new Planner(
      this.registry,
      this.registry.get(exists.entity),
      `${this.prefix}e${++this.nestedCount}_`,
    );
    const where = (exists.where ?? []).map((item) => nested.plan(item, depth + 1));
    // Without `field`, an EXISTS that does not depend on the row (an ACL on every contact).
    if (exists.field === undefined) return { kind: 'exists', planner: nested, where };
    const inner = nested.resolve(exists.field, 'filter').ref;
    return { kind: 'exists', planner: nested, where, inner, outer: this.resolve(exists.ref ?? 'id', 'filter').ref };
  }

  /**
   * An explicit join (APIv4 `join`), in the order given: its `on` fields are root fields or `<alias>.<field>`
   * of this or an earlier join; its own conditions narrow the joined rows in the ON clause.
   */
  addExplicitJoin(join: ExplicitJoin): void {
    if (this.explicit.size >= MAX_EXPLICIT_JOINS) throw invalidJoin(`At most ${MAX_EXPLICIT_JOINS} joins`);
    const entity = this.registry.find(join.entity);
    if (!entity) throw invalidJoin(`Cannot join unknown entity ${join.entity}`);
    const on = explicitLink(this.root, entity, join, (alias) => this.explicit.has(alias));
    const planned: Join = {
      alias: `${this.prefix}x${++this.aliasCount}`,
      entity,
      from: this.rootAlias,
      column: 'id',
      inner: join.type === 'INNER',
      explicit: { link: [], exclude: join.type === 'EXCLUDE' },
    };
    this.explicit.set(join.alias, planned);
    this.joins.set(join.alias, planned);
    const column = (path: string) => {
      const parts = path.split('.');
      if (parts.length > 2 || (parts.length === 2 && !this.explicit.has(parts[0])))
        throw invalidJoin(`Join condition on ${path}: use a field of ${this.root.name} or <alias>.<field>`);
      const resolved = this.resolve(path, 'select');
      if (!resolved.ref || resolved.field.related) throw unknownField(path);
      return resolved.ref;
    };
    planned.explicit!.link = on.map((item) => ({ left: column(item.left), op: item.op, right: column(item.right) }));
    if (join.where.length) {
      const planner = new Planner(this.registry, entity, `${this.prefix}e${++this.nestedCount}_`);
      planned.explicit!.narrow = { planner, where: join.where.map((item) => planner.plan(item)) };
    }
  }

  /** Restricts a joined entity to the rows a condition allows ('none': no row); a hidden row reads as NULL. */
  restrictJoin(join: Join, restriction: Condition[] | 'none'): void {
    if (restriction === 'none') join.restriction = 'none';
    else {
      const planner = new Planner(this.registry, join.entity, `${this.prefix}e${++this.nestedCount}_`);
      join.restriction = { planner, where: restriction.map((item) => planner.plan(item)) };
    }
  }

  /** Adds the joins to a query rooted at `rootAlias`. */
  applyJoins(qb: Knex.QueryBuilder): void {
    // In the order they were made: a join may start from an earlier one (`email_primary.location_type_id`).
    const order = (alias: string) => Number(/(\d+)$/.exec(alias)?.[1] ?? 0);
    const all = [
      ...[...this.joins.values()].map((join) => ({ at: order(join.alias), apply: () => applyFkJoin(qb, join) })),
      ...[...this.related.values()].map((join) => ({
        at: order(join.alias),
        apply: () => applyRelatedJoin(qb, join, join.from === this.rootAlias ? this.idBounds : []),
      })),
    ];
    for (const { apply } of all.sort((x, y) => x.at - y.at)) apply();
  }

  /** `FROM <root table> AS <rootAlias>` with this planner's joins, on a builder (the caller selects). */
  from(qb: Knex.QueryBuilder): Knex.QueryBuilder {
    qb.from(`${this.root.table} as ${this.rootAlias}`);
    this.applyJoins(qb);
    return qb;
  }
}
