/**
 * Reading the log tables: the change history of one record (its own table and the custom-value tables that
 * extend its entity), each entry with who, when and the before/after of every field that changed; and the
 * field-by-field changes of one change set (`log_conn_id`, the reference's Logging.get). Secret columns are
 * masked: their log columns hold only a digest, shown as "******" (a change is still visible).
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { CompiledEntity, EntityRegistry } from '../entity-core';
import { LOG_COLUMNS, existingLogTables, ident, logTableOf, secretColumns } from './schema';

type Row = Record<string, unknown>;
export const MASK = '******';

export interface LogEntry {
  id: number;
  entity: string;
  entity_id: number;
  record_id: number;
  action: string;
  log_date: unknown;
  log_conn_id: string | null;
  contact_id: number | null;
  changes: Record<string, { before: unknown; after: unknown }>;
}

interface Source {
  entity: CompiledEntity;
  table: string;
  /** The column holding the record's id: `id`, or `entity_id` in a custom-value table. */
  key: string;
}

/** The entity's own table and the custom-value tables whose `entity_id` points at it. */
function sources(registry: EntityRegistry, entity: CompiledEntity): Source[] {
  const out: Source[] = [{ entity, table: entity.table, key: 'id' }];
  for (const name of registry.names()) {
    if (!name.startsWith('Custom_')) continue;
    const custom = registry.get(name);
    if (custom.byName.get('entity_id')?.fk === entity.name)
      out.push({ entity: custom, table: custom.table, key: 'entity_id' });
  }
  return out;
}

/** Field names by column (computed fields have none); columns of dropped fields keep their column name. */
function fieldNames(entity: CompiledEntity): Map<string, string> {
  const out = new Map<string, string>();
  for (const field of entity.fields)
    if (!field.collection && !field.related && !field.via && !field.labelOf)
      out.set(field.column ?? field.name, field.name);
  return out;
}

const same = (left: unknown, right: unknown) => JSON.stringify(left ?? null) === JSON.stringify(right ?? null);

/** before/after of every column that differs between two logged rows (before is null for the first). */
function changesOf(previous: Row | null, row: Row | null, names: Map<string, string>, secrets: string[]) {
  const changes: LogEntry['changes'] = {};
  const columns = Object.keys(row ?? previous ?? {}).filter((column) => !LOG_COLUMNS.includes(column));
  for (const column of columns) {
    const before = previous ? (previous[column] ?? null) : null;
    const after = row ? (row[column] ?? null) : null;
    if (same(before, after)) continue;
    const show = (value: unknown) => (value === null ? null : secrets.includes(column) ? MASK : value);
    changes[names.get(column) ?? column] = { before: show(before), after: show(after) };
  }
  return changes;
}

/** The change history of one record, oldest first. */
export async function recordHistory(
  db: Knex,
  registry: EntityRegistry,
  entityName: string,
  id: number,
): Promise<LogEntry[]> {
  const entity = registry.find(entityName);
  if (!entity?.table)
    throw new KernelError('E_INVALID_PARAMS', `Unknown entity: ${entityName}`, { details: { error_field: 'entity' } });
  const logged = await existingLogTables(db);
  const entries: Omit<LogEntry, 'id'>[] = [];
  for (const source of sources(registry, entity)) {
    if (!logged.has(source.table)) continue;
    const log = ident(logTableOf(source.table));
    const rows = await jsonRows(
      db,
      `select to_jsonb(l) as row from ${log} l where ${ident(source.key)} = ? order by log_date`,
      [id],
    );
    const names = fieldNames(source.entity);
    const secrets = secretColumns(registry, source.table);
    const last = new Map<unknown, Row>();
    for (const { row } of rows) {
      const previous = last.get(row.id) ?? null;
      const deleted = row.log_action === 'Delete';
      entries.push({
        entity: source.entity.name,
        entity_id: id,
        record_id: Number(row.id),
        action: String(row.log_action),
        log_date: row.log_date,
        log_conn_id: (row.log_conn_id as string | null) ?? null,
        contact_id: row.log_user_id === null || row.log_user_id === undefined ? null : Number(row.log_user_id),
        changes: changesOf(deleted ? row : previous, deleted ? null : row, names, secrets),
      });
      last.set(row.id, row);
    }
  }
  entries.sort((left, right) => String(left.log_date).localeCompare(String(right.log_date)));
  return entries.map((entry, index) => ({ id: index + 1, ...entry }));
}

/** Logging.get: every field changed by one change set (log_conn_id), optionally within a time window. */
export async function changeSet(
  db: Knex,
  registry: EntityRegistry,
  connId: string,
  window?: { date: string; seconds: number },
): Promise<Row[]> {
  const out: Row[] = [];
  for (const table of [...(await existingLogTables(db))].sort()) {
    const log = ident(logTableOf(table));
    // Each row with the logged state of its record just before it (for an update's "before").
    const previous = `(select to_jsonb(p) from ${log} p where p.id = l.id and p.log_date < l.log_date order by p.log_date desc limit 1)`;
    const select = `select to_jsonb(l) as row, ${previous} as previous from ${log} l where l.log_conn_id = ?`;
    const rows = window
      ? await jsonRows(
          db,
          `${select} and l.log_date <= ?::timestamp and l.log_date >= ?::timestamp - make_interval(secs => ?) order by l.log_date`,
          [connId, window.date, window.date, window.seconds],
        )
      : await jsonRows(db, `${select} order by l.log_date`, [connId]);
    if (!rows.length) continue;
    const entity = registry.byTable(table);
    const names = entity ? fieldNames(entity) : new Map<string, string>();
    const secrets = secretColumns(registry, table);
    for (const { row, previous } of rows) {
      const deleted = row.log_action === 'Delete';
      const changes = changesOf(
        deleted ? row : row.log_action === 'Update' ? previous : null,
        deleted ? null : row,
        names,
        secrets,
      );
      for (const [field, change] of Object.entries(changes))
        out.push({
          action: row.log_action,
          id: row.id,
          field,
          from: change.before,
          to: change.after,
          table,
          log_date: row.log_date,
          log_conn_id: row.log_conn_id,
        });
    }
  }
  return out;
}

/** Log rows as JSON (every value as the database renders it, so two rows compare field by field). */
async function jsonRows(
  db: Knex,
  sql: string,
  bindings: Array<string | number>,
): Promise<Array<{ row: Row; previous: Row | null }>> {
  const rows = (await db.raw(sql, bindings)).rows as Array<{ row: Row; previous?: Row | null }>;
  return rows.map((entry) => ({ row: entry.row, previous: entry.previous ?? null }));
}
