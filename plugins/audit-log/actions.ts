/**
 * The actions: APIv3 System.updatelogtables (4.7.7) and System.createmissinglogtables, APIv3 Logging.get (the
 * changes of one change set, by log_conn_id), and APIv4 LogEntry get/getFields (the history of one record).
 * All need `administer CRM`, as the reference's logging does.
 */
import { KernelError, type ActionRegistrar } from '../../kernel';
import { envelope, stringifyLeaves } from '../api3';
import type { EntityRegistry } from '../entity-core';
import { changeSet, recordHistory, type LogEntry } from './history';
import { syncLogTables } from './schema';
import type { AuditState } from './state';

const ADMIN = 'administer CRM';
const UNITS: Record<string, number> = { SECOND: 1, MINUTE: 60, HOUR: 3600, DAY: 86400 };

/** The reference's interval text (`10 SECOND`) in seconds. */
function seconds(interval: string): number {
  const match = /^\s*(\d+)\s+(SECOND|MINUTE|HOUR|DAY)S?\s*$/i.exec(interval);
  if (!match)
    throw new KernelError('E_INVALID_PARAMS', `interval must be like "10 SECOND": ${interval}`, {
      details: { error_field: 'interval' },
    });
  return Number(match[1]) * UNITS[match[2].toUpperCase()];
}

/** `log_date` as `YYYY-MM-DD HH:MM:SS` (the reference also takes `YYYYMMDDHHMMSS`); an impossible date is refused. */
function timestamp(given: string): string {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]?(\d{2}):?(\d{2})(?::?(\d{2}))?)?$/.exec(given.trim());
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match ?? [];
  const text = `${year}-${month}-${day} ${hour}:${minute}:${second}`;
  const parsed = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  if (!match || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 19) !== text.replace(' ', 'T'))
    throw new KernelError('E_INVALID_PARAMS', `log_date is not a valid date and time: ${given}`, {
      details: { error_field: 'log_date' },
    });
  return text;
}

export const LOG_ENTRY_FIELDS = [
  { name: 'id', data_type: 'Integer', title: 'Entry (in this answer)' },
  { name: 'entity', data_type: 'String', title: 'Entity (the record, or the custom group extending it)' },
  { name: 'entity_id', data_type: 'Integer', title: 'Record ID' },
  { name: 'record_id', data_type: 'Integer', title: 'Logged row ID (the custom-value row for custom data)' },
  { name: 'action', data_type: 'String', title: 'Initialization, Insert, Update or Delete' },
  { name: 'log_date', data_type: 'Timestamp', title: 'When' },
  { name: 'log_conn_id', data_type: 'String', title: 'Change set (one transaction)' },
  { name: 'contact_id', data_type: 'Integer', title: 'Changed by (contact)' },
  { name: 'changes', data_type: 'Array', title: 'Changed fields: {field: {before, after}}' },
];

/** APIv4 LogEntry.get's where: `entity` and `entity_id` required (=), `action` and `contact_id` optional. */
function v4Filters(where: unknown[]): { entity: string; id: number; rest: Record<string, unknown> } {
  const filters: Record<string, unknown> = {};
  for (const clause of where) {
    const known = ['entity', 'entity_id', 'action', 'contact_id', 'log_conn_id'];
    if (!Array.isArray(clause) || clause.length !== 3 || clause[1] !== '=' || !known.includes(String(clause[0])))
      throw new KernelError('E_INVALID_PARAMS', `LogEntry where takes [field, "=", value] on ${known.join(', ')}`, {
        details: { error_field: 'where' },
      });
    filters[String(clause[0])] = clause[2];
  }
  const { entity, entity_id: id, ...rest } = filters;
  if (typeof entity !== 'string' || !/^\d+$/.test(String(id ?? '')))
    throw new KernelError('E_INVALID_PARAMS', 'LogEntry.get needs where entity = <name> and entity_id = <id>', {
      details: { error_field: 'where' },
    });
  return { entity, id: Number(id), rest };
}

export function defineAuditActions(actions: ActionRegistrar, registry: EntityRegistry, state: AuditState): void {
  const sync = (missingOnly: boolean) => async (_params: unknown, ctx: { db: import('knex').Knex }) => {
    const count =
      state.enabled || missingOnly ? await syncLogTables(ctx.db, registry, { missingOnly, recreate: !missingOnly }) : 0;
    return { is_error: 0, version: 3, count: 1, values: count };
  };
  actions.define({
    version: 3,
    entity: 'System',
    action: 'updatelogtables',
    description:
      'With logging on: adds missing log tables and columns and recreates the triggers; values: tables changed',
    params: { type: 'object' },
    permission: ADMIN,
    writes: true,
    handler: sync(false),
  });
  actions.define({
    version: 3,
    entity: 'System',
    action: 'createmissinglogtables',
    description: 'Creates the log tables that are missing (no triggers); values: tables created',
    params: { type: 'object' },
    permission: ADMIN,
    writes: true,
    handler: sync(true),
  });
  actions.define({
    version: 3,
    entity: 'Logging',
    action: 'get',
    description: 'The field changes of one change set: log_conn_id, optionally log_date and interval before it',
    params: {
      type: 'object',
      required: ['log_conn_id'],
      properties: {
        log_conn_id: { type: ['string', 'integer'], minLength: 1 },
        log_date: { type: 'string' },
        interval: { type: 'string', default: '10 SECOND' },
      },
    },
    permission: ADMIN,
    handler: async (params, ctx) => {
      const p = params as { log_conn_id: string | number; log_date?: string; interval: string };
      const window = p.log_date ? { date: timestamp(p.log_date), seconds: seconds(p.interval) } : undefined;
      const rows = await changeSet(ctx.db, registry, String(p.log_conn_id), window);
      return envelope(
        rows.map((row) => stringifyLeaves(row) as Record<string, unknown>),
        { sequential: true },
      );
    },
  });
  actions.define({
    version: 4,
    entity: 'LogEntry',
    action: 'get',
    description: 'The change history of one record: where entity = <name> and entity_id = <id>',
    params: {
      type: 'object',
      additionalProperties: false,
      properties: {
        where: { type: 'array' },
        select: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer', minimum: 0 },
        checkPermissions: { type: 'boolean' },
      },
    },
    permission: ADMIN,
    handler: async (params, ctx) => {
      const p = params as { where?: unknown[]; select?: string[]; limit?: number };
      const { entity, id, rest } = v4Filters(p.where ?? []);
      let rows: LogEntry[] = await recordHistory(ctx.db, registry, entity, id);
      rows = rows.filter((row) =>
        Object.entries(rest).every(([name, value]) => String(row[name as keyof LogEntry]) === String(value)),
      );
      if (p.limit) rows = rows.slice(0, p.limit);
      const select = p.select?.filter((name) => name !== '*') ?? [];
      if (!select.length) return rows;
      return rows.map((row) => Object.fromEntries(select.map((name) => [name, row[name as keyof LogEntry]])));
    },
  });
  actions.define({
    version: 4,
    entity: 'LogEntry',
    action: 'getFields',
    description: 'The fields of a LogEntry',
    params: { type: 'object' },
    permission: ADMIN,
    handler: () => LOG_ENTRY_FIELDS.map((field) => ({ ...field, entity: 'LogEntry', type: 'Field', readonly: true })),
  });
}
