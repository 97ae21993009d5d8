/**
 * The store's writes: INSERT and UPDATE … RETURNING the columns a read by id selects, so a write hands back
 * its stored row without reading it again. Values are converted by field type (values.ts) and bound.
 */
import type { Knex } from 'knex';
import { guarded } from './db-errors';
import { insertUnnest, returningOf, unnestable, type Returning } from './bulk-insert';
import { isColumn } from './schema';
import type { CompiledEntity } from './types';
import { toDb, type FieldCipher } from './values';

type Row = Record<string, unknown>;

export abstract class StoreWrites {
  private readonly returns = new WeakMap<CompiledEntity, Returning>();

  constructor(
    /** Seals `encrypted` fields at rest (the host's `secretBox`); without it they are stored as given. */
    readonly cipher?: FieldCipher,
  ) {}

  /** The stored row by id (field names), without access checks. */
  abstract byId(db: Knex, entity: CompiledEntity, id: number): Promise<Row | null>;

  /** The fields a read returns when it names none: every stored field but secrets. */
  defaultSelect(entity: CompiledEntity): string[] {
    return entity.fields.filter((f) => !f.secret && isColumn(f)).map((f) => f.name);
  }

  async insert(db: Knex, entity: CompiledEntity, values: Row): Promise<number> {
    const [row] = (await guarded(async () =>
      db(entity.table)
        .insert(toDb(entity, values, this.cipher))
        .returning('id'),
    )) as Array<{
      id: number;
    }>;
    return Number(row.id);
  }

  /** Inserts and returns the stored row as {@link byId} reads it (defaults included), from the INSERT's RETURNING. */
  async insertRow(db: Knex, entity: CompiledEntity, values: Row): Promise<Row> {
    return (await this.insertRows(db, entity, [values]))[0];
  }

  /** Many rows in one INSERT (bulk-insert.ts) … RETURNING, in order; a field a row leaves out takes its default. */
  async insertRows(db: Knex, entity: CompiledEntity, rows: Row[]): Promise<Row[]> {
    const returning = this.returning(entity);
    const data = rows.map((values) => toDb(entity, values, this.cipher));
    // Rows as arrays: the driver builds no object per returned row (a batch returns thousands).
    const stored = (await guarded(async () =>
      data.length > 1 && unnestable(data)
        ? insertUnnest(db, entity, data, returning.columns)
        : db(entity.table).insert(data).returning(returning.columns).options({ rowMode: 'array' }),
    )) as unknown[][];
    return stored.map(returning.fromArray);
  }

  async update(db: Knex, entity: CompiledEntity, id: number, values: Row): Promise<void> {
    const data = toDb(entity, values, this.cipher);
    delete data.id;
    if (Object.keys(data).length) await guarded(async () => db(entity.table).where('id', id).update(data));
  }

  /** Updates and returns the stored row as {@link byId} reads it (UPDATE … RETURNING); null when no row has this id. */
  async updateRow(db: Knex, entity: CompiledEntity, id: number, values: Row): Promise<Row | null> {
    const data = toDb(entity, values, this.cipher);
    delete data.id;
    if (!Object.keys(data).length) return this.byId(db, entity, id);
    const returning = this.returning(entity);
    const [row] = (await guarded(async () =>
      db(entity.table).where('id', id).update(data).returning(returning.columns),
    )) as Row[];
    return row ? returning.map(row) : null;
  }

  /** The RETURNING list of a write (the columns {@link byId} selects, from metadata) and its row mapping. */
  returning(entity: CompiledEntity): Returning {
    let returning = this.returns.get(entity);
    if (!returning) {
      returning = returningOf(
        this.defaultSelect(entity).map((name) => entity.byName.get(name)!),
        this.cipher,
      );
      this.returns.set(entity, returning);
    }
    return returning;
  }

  async remove(db: Knex, entity: CompiledEntity, id: number): Promise<number> {
    return guarded(async () => db(entity.table).where('id', id).del());
  }
}
