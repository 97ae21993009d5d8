/** `crm log <Entity> <id> [--json]`: the change history of one record, as text or JSON. */
import type { CliCommand, CliContext } from '../../host';
import type { EntityRegistry } from '../entity-core';
import { recordHistory, type LogEntry } from './history';

const text = (value: unknown) =>
  value === null || value === undefined ? '(none)' : typeof value === 'object' ? JSON.stringify(value) : String(value);
const when = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/** One entry per block: when, action, entity and who; then each changed field as before → after. */
export function renderHistory(entries: LogEntry[]): string {
  if (!entries.length) return 'No logged changes.';
  return entries
    .map((entry) => {
      const who = entry.contact_id === null ? 'unknown' : `contact ${entry.contact_id}`;
      const what = `${entry.action}  ${entry.entity} ${entry.record_id}`;
      const head = `${when(entry.log_date)}  ${what}  by ${who}  (change set ${entry.log_conn_id})`;
      const lines = Object.entries(entry.changes).map(
        ([field, change]) => `    ${field}: ${text(change.before)} → ${text(change.after)}`,
      );
      return [head, ...lines].join('\n');
    })
    .join('\n');
}

export function logCliCommand(registry: EntityRegistry): CliCommand {
  return {
    name: 'log',
    description: 'Show the change history of a record (detailed logging must be on), e.g. crm log Contact 3',
    arguments: [
      { name: 'entity', description: 'the entity, e.g. Contact' },
      { name: 'id', description: 'the record id' },
    ],
    options: [{ flags: '--json', description: 'print the entries as JSON (as APIv4 LogEntry.get answers them)' }],
    run: async (args: string[], options: Record<string, unknown>, cli: CliContext) => {
      const [entity, id] = args;
      if (!/^\d+$/.test(id ?? '')) throw new Error(`id must be a number: ${id}`);
      const entries = await recordHistory(cli.db, registry, entity, Number(id));
      return options.json ? JSON.stringify(entries, null, 2) : renderHistory(entries);
    },
  };
}
