/** Snapshot arithmetic: the steps between two snapshots, a snapshot after steps, a comparable order. */
import type { SchemaSnapshot, SchemaStep, TableSchema } from './schema';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The steps that turn `from` into `to`, in an order the database accepts: constraints and indexes go
 * before the columns and tables they use, and come back after them.
 */
export function diffSchemas(from: SchemaSnapshot, to: SchemaSnapshot): SchemaStep[] {
  const drops: SchemaStep[] = [];
  const tables: SchemaStep[] = [];
  const columns: SchemaStep[] = [];
  const adds: SchemaStep[] = [];
  for (const [table, was] of Object.entries(from.tables)) {
    const now = to.tables[table];
    for (const fk of was.foreignKeys)
      if (
        !now ||
        !same(
          fk,
          now.foreignKeys.find((x) => x.name === fk.name),
        )
      )
        drops.push({ op: 'dropForeignKey', table, foreignKey: fk });
    for (const index of was.indexes)
      if (
        !now ||
        !same(
          index,
          now.indexes.find((x) => x.name === index.name),
        )
      )
        drops.push({ op: 'dropIndex', table, index });
    if (!now) tables.push({ op: 'dropTable', table, was });
  }
  for (const [table, now] of Object.entries(to.tables)) {
    const was = from.tables[table];
    if (!was) tables.push({ op: 'createTable', table, columns: now.columns });
    else {
      for (const column of now.columns) {
        const old = was.columns.find((c) => c.name === column.name);
        if (!old) columns.push({ op: 'addColumn', table, column });
        else if (!same(old, column)) columns.push({ op: 'alterColumn', table, column, was: old });
      }
      for (const column of was.columns)
        if (!now.columns.some((c) => c.name === column.name)) columns.push({ op: 'dropColumn', table, column });
    }
    for (const index of now.indexes)
      if (
        !was ||
        !same(
          index,
          was.indexes.find((x) => x.name === index.name),
        )
      )
        adds.push({ op: 'createIndex', table, index });
    for (const fk of now.foreignKeys)
      if (
        !was ||
        !same(
          fk,
          was.foreignKeys.find((x) => x.name === fk.name),
        )
      )
        adds.push({ op: 'addForeignKey', table, foreignKey: fk });
  }
  return [...drops, ...tables, ...columns, ...adds];
}

/** The snapshot after `steps` (what a plugin's migrations produce, folded without a database). */
export function foldSteps(start: SchemaSnapshot, steps: SchemaStep[]): SchemaSnapshot {
  const tables: Record<string, TableSchema> = structuredClone(start.tables);
  const get = (table: string) => {
    const found = tables[table];
    if (!found) throw new Error(`Schema step on unknown table ${table}`);
    return found;
  };
  for (const step of steps) {
    switch (step.op) {
      case 'createTable':
        tables[step.table] = { columns: structuredClone(step.columns), indexes: [], foreignKeys: [] };
        break;
      case 'dropTable':
        delete tables[step.table];
        break;
      case 'addColumn':
        get(step.table).columns.push(structuredClone(step.column));
        break;
      case 'dropColumn':
        get(step.table).columns = get(step.table).columns.filter((c) => c.name !== step.column.name);
        break;
      case 'alterColumn':
        get(step.table).columns = get(step.table).columns.map((c) =>
          c.name === step.column.name ? structuredClone(step.column) : c,
        );
        break;
      case 'createIndex':
        get(step.table).indexes.push(structuredClone(step.index));
        break;
      case 'dropIndex':
        get(step.table).indexes = get(step.table).indexes.filter((x) => x.name !== step.index.name);
        break;
      case 'addForeignKey':
        get(step.table).foreignKeys.push(structuredClone(step.foreignKey));
        break;
      case 'dropForeignKey':
        get(step.table).foreignKeys = get(step.table).foreignKeys.filter((x) => x.name !== step.foreignKey.name);
        break;
    }
  }
  return { tables };
}

/** The same snapshot with tables, columns, indexes and keys in name order (for comparing). */
export function normalizeSnapshot(snapshot: SchemaSnapshot): SchemaSnapshot {
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  const tables: Record<string, TableSchema> = {};
  for (const table of Object.keys(snapshot.tables).sort()) {
    const { columns, indexes, foreignKeys } = snapshot.tables[table];
    tables[table] = { columns: byName(columns), indexes: byName(indexes), foreignKeys: byName(foreignKeys) };
  }
  return { tables };
}
