/**
 * The metadata-driven SQL store. Identifiers (tables, columns, joins, operators, sort) come only from
 * entity metadata and the operator whitelist; every value is a bound parameter.
 */
import type { Knex } from 'knex';
import { KernelError, type Principal } from '../../kernel';
import type { RowAccess } from './hooks';
import type { EntityRegistry } from './registry';
import type { CompiledEntity, FieldDef } from './types';

export const OPERATORS = [
  '=',
  '<=',
  '>=',
  '>',
  '<',
  'LIKE',
  '<>',
  '!=',
  'NOT LIKE',
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
  'IS NOT NULL',
  'IS NULL',
] as const;
/** APIv4's operators: APIv3's plus emptiness tests and CONTAINS (serialized fields, substrings). */
export const V4_OPERATORS = [...OPERATORS, 'IS EMPTY', 'IS NOT EMPTY', 'CONTAINS', 'NOT CONTAINS'] as const;
export type Operator = (typeof V4_OPERATORS)[number];
export const MAX_JOINS = 4;

export interface Filter {
  /** Field name, or a dotted FK path (`contact_id.display_name`). */
  path: string;
  op: Operator;
  value?: unknown;
}
/**
 * One condition: a filter, or a group. `{or: [...]}` with plain filters is the APIv3 shape; APIv4 nests
 * `{and}`, `{or}` and `{not}` groups to any depth.
 */
export type Condition = Filter | { or: Condition[] } | { and: Condition[] } | { not: Condition };

/** Every field path a condition uses (for join permission checks). */
export function conditionPaths(c: Condition): string[] {
  if ('or' in c) return c.or.flatMap(conditionPaths);
  if ('and' in c) return c.and.flatMap(conditionPaths);
  if ('not' in c) return conditionPaths(c.not);
  return [c.path];
}

/** Nesting depth guard: a caller cannot make the planner recurse without bound. */
export const MAX_CONDITION_DEPTH = 16;

export interface Query {
  where?: Condition[];
  /** Field names / dotted paths to return; default every stored field. */
  select?: string[];
  sort?: Array<{ path: string; dir: 'ASC' | 'DESC' }>;
  /** 0 or undefined = no limit. */
  limit?: number;
  /** Also apply row access (view) to entities reached by FK joins (APIv4); a hidden joined row reads as NULL. */
  joinAccess?: boolean;
  offset?: number;
}

export type AccessFn = (q: {
  entity: string;
  operation: 'view' | 'edit' | 'delete' | 'create';
  principal: Principal;
}) => Promise<RowAccess | undefined>;

interface Resolved {
  /** SQL alias.column to use. */
  ref: string;
  field: FieldDef;
}

/** Plans joins for one query: alias per FK path, inner when a filter uses it. */
class Planner {
  private joins = new Map<
    string,
    { alias: string; entity: CompiledEntity; from: string; column: string; inner: boolean; owners?: number[] }
  >();
  private related = new Map<
    string,
    { alias: string; entity: CompiledEntity; fk: string; where: Record<string, unknown> }
  >();
  private n = 0;

  constructor(
    private reg: EntityRegistry,
    readonly root: CompiledEntity,
  ) {}

  resolve(path: string, use: 'filter' | 'select' | 'sort'): Resolved {
    const parts = path.split('.');
    if (parts.length - 1 > MAX_JOINS) {
      throw new KernelError('E_FORBIDDEN', `Maximum number of joins exceeded in parameter ${path}`, {
        details: { error_code: 'unauthorized' },
      });
    }
    let entity = this.root;
    let alias = 't';
    let prefix = '';
    for (let i = 0; i < parts.length - 1; i++) {
      const f = entity.lookup.get(parts[i]);
      if (!f || !f.fk) throw unknownField(path);
      prefix = prefix ? `${prefix}.${f.name}` : f.name;
      let j = this.joins.get(prefix);
      if (!j) {
        const target = this.reg.get(f.fk);
        j = { alias: `j${++this.n}`, entity: target, from: alias, column: f.column ?? f.name, inner: false };
        this.joins.set(prefix, j);
      }
      if (use === 'filter') j.inner = true;
      entity = j.entity;
      alias = j.alias;
    }
    const field = entity.lookup.get(parts[parts.length - 1]);
    if (!field) throw unknownField(path);
    if (field.related) {
      const r = field.related;
      const key = `${alias}|${r.entity}|${r.fk}|${JSON.stringify(r.where ?? {})}`;
      let rel = this.related.get(key);
      if (!rel) {
        rel = { alias: `r${++this.n}`, entity: this.reg.get(r.entity), fk: r.fk, where: r.where ?? {} };
        this.related.set(key, rel);
      }
      const target = rel.entity.byName.get(r.field)!;
      return { ref: `${rel.alias}.${target.column ?? target.name}`, field };
    }
    if (field.labelOf || field.via) throw unknownField(path);
    return { ref: `${alias}.${field.column ?? field.name}`, field };
  }

  /** Restricts each joined entity with an owner field to the rows the principal may view. */
  async restrictJoins(access: (entity: CompiledEntity) => Promise<RowAccess>): Promise<void> {
    for (const j of this.joins.values()) {
      if (!j.entity.ownerField) continue;
      const a = await access(j.entity);
      if (a === 'all') continue;
      j.owners = a === 'none' ? [] : a.contactIds;
    }
  }

  apply(qb: Knex.QueryBuilder, rootIdRef = 't.id'): void {
    for (const j of this.joins.values()) {
      const on = (jb: Knex.JoinClause) => {
        jb.on(`${j.alias}.id`, '=', `${j.from}.${j.column}`);
        if (j.owners) {
          const owner = j.entity.byName.get(j.entity.ownerField!)!;
          // No contact has id -1: an empty list matches nothing.
          jb.andOnIn(`${j.alias}.${owner.column ?? owner.name}`, j.owners.length ? j.owners : [-1]);
        }
      };
      if (j.inner) qb.innerJoin(`${j.entity.table} as ${j.alias}`, on);
      else qb.leftJoin(`${j.entity.table} as ${j.alias}`, on);
    }
    for (const r of this.related.values()) {
      const fkCol = r.entity.byName.get(r.fk)!;
      qb.leftJoin(`${r.entity.table} as ${r.alias}`, (jb) => {
        jb.on(`${r.alias}.${fkCol.column ?? fkCol.name}`, '=', rootIdRef);
        for (const [k, v] of Object.entries(r.where)) {
          const f = r.entity.byName.get(k)!;
          jb.andOnVal(`${r.alias}.${f.column ?? f.name}`, '=', toDbValue(f, v) as Knex.Value);
        }
      });
    }
  }
}

function unknownField(path: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', `Unknown field ${path}`, {
    details: { error_code: 0, error_field: path },
  });
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Turns a database error into an API error without SQL text (knex puts the statement in the message).
 * Unique violations → E_CONFLICT `DB Error: already exists`; other constraint failures →
 * `DB Error: constraint violation`; anything else from the database → E_DATABASE.
 */
export function dbError(err: unknown): KernelError | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code)) {
      const column = (e as { column?: string }).column;
      const constraint = (e as { constraint?: string }).constraint;
      if (code === '23505')
        return new KernelError('E_CONFLICT', 'DB Error: already exists', {
          details: { error_code: 'already exists' },
          cause: e,
        });
      if (code.startsWith('23')) {
        const field = column ?? constraint;
        return new KernelError(
          'E_CONFLICT',
          code === '23502' && column
            ? `DB Constraint Violation - ${column} should possibly be marked as mandatory`
            : 'DB Error: constraint violation',
          { details: { error_code: 'constraint violation', ...(field ? { field } : {}) }, cause: e },
        );
      }
      if (code.startsWith('22'))
        return new KernelError('E_INVALID_PARAMS', 'DB Error: invalid value', {
          details: { error_code: 'invalid value' },
          cause: e,
        });
      return new KernelError('E_DATABASE', 'DB Error: unknown error', {
        details: { error_code: 'database' },
        cause: e,
      });
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw dbError(err) ?? err;
  }
}

export class EntityStore {
  private readonly returns = new WeakMap<
    CompiledEntity,
    { columns: string[]; map: (row: Record<string, unknown>) => Record<string, unknown> }
  >();

  constructor(
    readonly registry: EntityRegistry,
    private readonly access: AccessFn,
  ) {}

  /** The row-access answer for an entity with an owner field ('all' without one, or when nobody answers). */
  async rowAccess(
    entity: CompiledEntity,
    operation: 'view' | 'edit' | 'delete' | 'create',
    principal: Principal,
  ): Promise<RowAccess> {
    if (!entity.ownerField) return 'all';
    return (await this.access({ entity: entity.name, operation, principal })) ?? 'all';
  }

  private build(p: Planner, q: Query) {
    const plan = (c: Condition, depth: number): Planned => {
      if (depth > MAX_CONDITION_DEPTH)
        throw new KernelError('E_INVALID_PARAMS', `Conditions nested deeper than ${MAX_CONDITION_DEPTH} levels`, {
          details: { error_code: 0 },
        });
      if ('or' in c) return { kind: 'or', items: c.or.map((x) => plan(x, depth + 1)) };
      if ('and' in c) return { kind: 'and', items: c.and.map((x) => plan(x, depth + 1)) };
      if ('not' in c) return { kind: 'not', items: [plan(c.not, depth + 1)] };
      return { kind: 'filter', f: c, r: p.resolve(c.path, 'filter') };
    };
    const where = (q.where ?? []).map((c) => plan(c, 0));
    const paths = q.select ?? this.defaultSelect(p.root);
    const cols = paths
      .filter((path) => !p.root.lookup.get(path)?.labelOf)
      .map((path) => ({ path, r: p.resolve(path, 'select') }));
    const sort = (q.sort ?? []).map((s) => ({ ...s, r: p.resolve(s.path, 'sort') }));
    return { where, cols, sort };
  }

  defaultSelect(entity: CompiledEntity): string[] {
    return entity.fields.filter((f) => !f.secret && !f.related && !f.labelOf && !f.via).map((f) => f.name);
  }

  private base(
    db: Knex,
    p: Planner,
    q: Query,
    built: ReturnType<EntityStore['build']>,
    access: RowAccess,
  ): Knex.QueryBuilder {
    const qb = db(`${p.root.table} as t`);
    p.apply(qb);
    for (const w of built.where) applyPlanned(qb, w);
    if (access === 'none') qb.whereRaw('false');
    else if (access !== 'all') {
      const owner = p.root.byName.get(p.root.ownerField!)!;
      qb.whereIn(`t.${owner.column ?? owner.name}`, access.contactIds);
    }
    return qb;
  }

  async select(
    db: Knex,
    entity: CompiledEntity,
    q: Query,
    principal: Principal | null,
  ): Promise<Array<Record<string, unknown>>> {
    const { paths, rows } = await this.selectRows(db, entity, q, principal);
    return rows.map((row) => {
      const rec: Record<string, unknown> = {};
      for (let i = 0; i < paths.length; i++) rec[paths[i]] = row[i];
      return rec;
    });
  }

  /**
   * As {@link select}, with each row as an array in the order of `paths` (the selected field paths): for a
   * caller that renders rows its own way, without an intermediate object per row.
   */
  async selectRows(
    db: Knex,
    entity: CompiledEntity,
    q: Query,
    principal: Principal | null,
  ): Promise<{ paths: string[]; rows: unknown[][] }> {
    const p = new Planner(this.registry, entity);
    const built = this.build(p, q);
    const access = principal ? await this.rowAccess(entity, 'view', principal) : 'all';
    if (q.joinAccess && principal) await p.restrictJoins((e) => this.rowAccess(e, 'view', principal));
    const qb = this.base(db, p, q, built, access);
    const selects: Record<string, string> = {};
    built.cols.forEach((c, i) => {
      selects[`c${i}`] = c.r.ref;
    });
    qb.select(selects);
    for (const s of built.sort) qb.orderBy(s.r.ref, s.dir.toLowerCase() as 'asc' | 'desc');
    if (!built.sort.some((s) => s.r.ref === 't.id')) qb.orderBy('t.id', 'asc');
    // The API layers validate these; the store refuses them too, so no caller ever reaches knex's own error.
    for (const [k, n] of [
      ['limit', q.limit],
      ['offset', q.offset],
    ] as const) {
      if (n !== undefined && !(Number.isSafeInteger(n) && n >= 0))
        throw new KernelError('E_INVALID_PARAMS', `${k} must be a non-negative integer`);
    }
    if (q.limit) qb.limit(q.limit);
    if (q.offset) qb.offset(q.offset);
    // Rows as arrays in select order: the driver builds no object per row either.
    qb.options({ rowMode: 'array' });
    const rows = (await guarded(async () => qb)) as unknown[][];
    const fields = built.cols.map((c) => c.r.field);
    for (const row of rows) for (let i = 0; i < fields.length; i++) row[i] = fromDb(fields[i], row[i]);
    return { paths: built.cols.map((c) => c.path), rows };
  }

  async count(db: Knex, entity: CompiledEntity, q: Query, principal: Principal | null): Promise<number> {
    const p = new Planner(this.registry, entity);
    const built = this.build(p, { ...q, select: ['id'], sort: [] });
    const access = principal ? await this.rowAccess(entity, 'view', principal) : 'all';
    if (q.joinAccess && principal) await p.restrictJoins((e) => this.rowAccess(e, 'view', principal));
    const qb = this.base(db, p, q, built, access);
    const [row] = (await guarded(async () => qb.count({ n: '*' }))) as Array<{ n: string | number }>;
    return Number(row.n);
  }

  /** The stored row by id (field names), without access checks. */
  async byId(db: Knex, entity: CompiledEntity, id: number): Promise<Record<string, unknown> | null> {
    const rows = await this.select(db, entity, { where: [{ path: 'id', op: '=', value: id }], limit: 1 }, null);
    return rows[0] ?? null;
  }

  /** Checks the principal may write this row (by its owner field); throws `unauthorized`. */
  async checkWrite(
    entity: CompiledEntity,
    operation: 'edit' | 'delete' | 'create',
    row: Record<string, unknown>,
    principal: Principal | null,
  ): Promise<void> {
    if (!principal || !entity.ownerField) return;
    const access = await this.rowAccess(entity, operation, principal);
    if (access === 'all') return;
    const owner = row[entity.ownerField];
    const ok =
      access !== 'none' &&
      (operation === 'create' && entity.ownerField === 'id' ? true : access.contactIds.includes(Number(owner)));
    if (!ok)
      throw new KernelError('E_FORBIDDEN', 'Permission denied to modify contact record', {
        details: { error_code: 'unauthorized' },
      });
  }

  async insert(db: Knex, entity: CompiledEntity, values: Record<string, unknown>): Promise<number> {
    const [row] = (await guarded(async () => db(entity.table).insert(toDb(entity, values)).returning('id'))) as Array<{
      id: number;
    }>;
    return Number(row.id);
  }

  /**
   * Inserts and returns the stored row as {@link byId} reads it (database defaults included), from the
   * INSERT's own RETURNING: one statement instead of an insert and a select.
   */
  async insertRow(db: Knex, entity: CompiledEntity, values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const ret = this.returning(entity);
    const [row] = (await guarded(async () =>
      db(entity.table).insert(toDb(entity, values)).returning(ret.columns),
    )) as Array<Record<string, unknown>>;
    return ret.map(row);
  }

  async update(db: Knex, entity: CompiledEntity, id: number, values: Record<string, unknown>): Promise<void> {
    const data = toDb(entity, values);
    delete data.id;
    if (Object.keys(data).length) await guarded(async () => db(entity.table).where('id', id).update(data));
  }

  /** Updates and returns the stored row as {@link byId} reads it (UPDATE … RETURNING); null when no row has this id. */
  async updateRow(
    db: Knex,
    entity: CompiledEntity,
    id: number,
    values: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null> {
    const data = toDb(entity, values);
    delete data.id;
    if (!Object.keys(data).length) return this.byId(db, entity, id);
    const ret = this.returning(entity);
    const [row] = (await guarded(async () =>
      db(entity.table).where('id', id).update(data).returning(ret.columns),
    )) as Array<Record<string, unknown>>;
    return row ? ret.map(row) : null;
  }

  /** The RETURNING list of a write (the columns {@link byId} selects, from metadata) and its row mapping. */
  private returning(entity: CompiledEntity): {
    columns: string[];
    map: (row: Record<string, unknown>) => Record<string, unknown>;
  } {
    let r = this.returns.get(entity);
    if (!r) {
      const fields = this.defaultSelect(entity).map((name) => entity.byName.get(name)!);
      r = {
        columns: fields.map((f) => f.column ?? f.name),
        map: (row) => {
          const out: Record<string, unknown> = {};
          for (const f of fields) out[f.name] = fromDb(f, row[f.column ?? f.name]);
          return out;
        },
      };
      this.returns.set(entity, r);
    }
    return r;
  }

  async remove(db: Knex, entity: CompiledEntity, id: number): Promise<number> {
    return guarded(async () => db(entity.table).where('id', id).del());
  }

  /** Rows elsewhere that reference this record, per referencing table/column (getrefcount). */
  async refCounts(
    db: Knex,
    entity: CompiledEntity,
    id: number,
  ): Promise<Array<{ name: string; type: string; table: string; key: string; count: number }>> {
    const out: Array<{ name: string; type: string; table: string; key: string; count: number }> = [];
    for (const name of this.registry.names()) {
      const other = this.registry.get(name);
      for (const f of other.fields.filter((x) => x.fk === entity.name && !x.related)) {
        const col = f.column ?? f.name;
        const [row] = (await db(other.table).where(col, id).count({ n: '*' })) as Array<{ n: string }>;
        const count = Number(row.n);
        if (count) out.push({ name: `sql:${other.table}:${col}`, type: 'Basic', table: other.table, key: col, count });
      }
    }
    return out;
  }
}

type Planned = { kind: 'filter'; f: Filter; r: Resolved } | { kind: 'or' | 'and' | 'not'; items: Planned[] };

/** Adds one planned condition to a query (AND-ed with what is there). */
function applyPlanned(qb: Knex.QueryBuilder, w: Planned): void {
  if (w.kind === 'filter') return applyFilter(qb, w.r, w.f);
  const items = w.items;
  if (w.kind === 'not') {
    qb.whereNot((sub) => {
      for (const x of items) applyPlanned(sub, x);
    });
    return;
  }
  if (!items.length) {
    // An empty OR matches nothing, an empty AND everything (as APIv4 does).
    if (w.kind === 'or') qb.whereRaw('false');
    return;
  }
  if (w.kind === 'and') {
    qb.where((sub) => {
      for (const x of items) applyPlanned(sub, x);
    });
    return;
  }
  qb.where((sub) => {
    for (const x of items) sub.orWhere((y) => applyPlanned(y, x));
  });
}

const isText = (f: FieldDef) => f.type === 'String' || f.type === 'Text' || f.type === 'Email' || f.type === 'Url';

function applyFilter(qb: Knex.QueryBuilder, r: Resolved, f: Filter): void {
  const col = r.ref;
  const v = (x: unknown) => toDbValue(r.field, x);
  if (r.field.serialize && (f.op === '=' || f.op === 'LIKE')) {
    qb.where(col, 'like', `%\x01${String(f.value)}\x01%`);
    return;
  }
  switch (f.op) {
    case '=':
      qb.where(col, '=', v(f.value) as Knex.Value);
      break;
    case '!=':
    case '<>':
      qb.where(col, '<>', v(f.value) as Knex.Value);
      break;
    case '>':
    case '>=':
    case '<':
    case '<=':
      qb.where(col, f.op, v(f.value) as Knex.Value);
      break;
    // The reference runs on MySQL, whose LIKE ignores case: so does ours. `lower(col) LIKE lower(?)`
    // rather than ILIKE, so a `lower(col) text_pattern_ops` index serves prefix searches.
    // Non-text columns are compared as text (MySQL does that implicitly).
    case 'LIKE':
      qb.whereRaw(isText(r.field) ? 'lower(??) like lower(?)' : 'lower(??::text) like lower(?)', [
        col,
        String(f.value),
      ]);
      break;
    case 'NOT LIKE':
      qb.whereRaw(isText(r.field) ? 'not (lower(??) like lower(?))' : 'not (lower(??::text) like lower(?))', [
        col,
        String(f.value),
      ]);
      break;
    case 'IN':
      qb.whereIn(col, (f.value as unknown[]).map(v) as Knex.Value[]);
      break;
    case 'NOT IN':
      qb.whereNotIn(col, (f.value as unknown[]).map(v) as Knex.Value[]);
      break;
    case 'BETWEEN':
      qb.whereBetween(col, (f.value as unknown[]).map(v) as [Knex.Value, Knex.Value]);
      break;
    case 'NOT BETWEEN':
      qb.whereNotBetween(col, (f.value as unknown[]).map(v) as [Knex.Value, Knex.Value]);
      break;
    case 'IS NULL':
      qb.whereNull(col);
      break;
    case 'IS NOT NULL':
      qb.whereNotNull(col);
      break;
    case 'IS EMPTY':
      qb.where((x) => {
        x.whereNull(col);
        if (isText(r.field) || r.field.serialize) x.orWhere(col, '=', '');
      });
      break;
    case 'IS NOT EMPTY':
      qb.whereNotNull(col);
      if (isText(r.field) || r.field.serialize) qb.where(col, '<>', '');
      break;
    case 'CONTAINS':
    case 'NOT CONTAINS': {
      // Serialized fields: the value is one item; other fields: a substring (case-insensitive, as MySQL).
      const items = Array.isArray(f.value) ? f.value : [f.value];
      const needle = (x: unknown) =>
        r.field.serialize ? `%\x01${likeEscape(String(x))}\x01%` : `%${likeEscape(String(x))}%`;
      const test = (x: Knex.QueryBuilder) => {
        for (const it of items) {
          if (r.field.serialize) x.where(col, 'like', needle(it));
          else x.whereRaw('??::text ilike ?', [col, needle(it)]);
        }
      };
      if (f.op === 'CONTAINS') qb.where(test);
      else qb.where((x) => x.whereNull(col).orWhereNot(test));
      break;
    }
  }
}

/** Escapes LIKE wildcards so a CONTAINS needle matches literally. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One value as the DB takes it (after the generic layer validated it). */
export function toDbValue(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined || value === '')
    return field.type === 'String' || field.type === 'Text' || field.type === 'Email' || field.type === 'Url'
      ? (value ?? null)
      : null;
  if (field.serialize) {
    const list = Array.isArray(value)
      ? value
      : String(value)
          .split(/[,\x01]/)
          .filter(Boolean);
    return list.length ? `\x01${list.join('\x01')}\x01` : null;
  }
  if (field.type === 'Boolean') return value === true || value === 1 || value === '1' || value === 'true';
  if (field.type === 'Int') return Number(value);
  return value;
}

function toDb(entity: CompiledEntity, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(values)) {
    const f = entity.byName.get(k);
    if (!f || f.related || f.labelOf || f.via) continue;
    out[f.column ?? f.name] = toDbValue(f, val);
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A DB value as the API shows it (before the envelope turns leaves into strings). */
export function fromDb(field: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (field.serialize && typeof v === 'string') return v.split('\x01').filter(Boolean);
  if (v instanceof Date) {
    const d = `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
    return field.type === 'Date' ? d : `${d} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}`;
  }
  if (field.type === 'Boolean') return v === true || v === 1 || v === '1' || v === 't' ? 1 : 0;
  return v;
}
