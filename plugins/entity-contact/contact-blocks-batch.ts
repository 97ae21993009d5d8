/**
 * The primary rules of a contact's blocks for a batch of creates (an import, APIv4 `save` with many
 * records): the same outcome as saving the rows one by one — the first block of a contact without any is
 * primary, the last one marked primary wins — in a fixed number of queries, not a few per row.
 */
import type { Knex } from 'knex';
import type { BatchSaveContext } from '../entity-core';
import { has, type Row } from './row-values';

export interface BlockRules {
  primary: boolean;
  locationDefault: boolean;
  normalise?: (v: Row) => void;
  /** After the batch: the rows that became their contact's primary. */
  onPrimaries?: (rows: Row[], db: Knex) => Promise<void>;
}

const ids = (rows: Row[], key: string): number[] => [
  ...new Set(rows.filter((row) => has(row[key])).map((row) => Number(row[key]))),
];

export function batchedBlockHooks(table: string, rules: BlockRules) {
  return {
    async beforeSaveMany(rows: Row[], batch: BatchSaveContext): Promise<Row[]> {
      for (const row of rows) rules.normalise?.(row);
      if (rules.locationDefault && rows.some((row) => !has(row.location_type_id))) {
        const [found] = await batch.entities.get('LocationType', { where: { is_default: 1 }, select: ['id'] });
        const fallback = found ? Number(found.id) : 1;
        for (const row of rows) if (!has(row.location_type_id)) row.location_type_id = fallback;
      }
      if (!rules.primary) return rows;
      const contacts = ids(rows, 'contact_id');
      const holding = new Set(
        contacts.length
          ? ((await batch.db(table).distinct('contact_id').whereIn('contact_id', contacts)) as Row[]).map((row) =>
              Number(row.contact_id),
            )
          : [],
      );
      for (const row of rows) {
        if (!has(row.contact_id)) continue;
        const contact = Number(row.contact_id);
        if (!row.is_primary && !holding.has(contact)) row.is_primary = 1;
        holding.add(contact);
      }
      return rows;
    },

    async afterSaveMany(rows: Row[], batch: BatchSaveContext): Promise<void> {
      if (!rules.primary) return;
      // Per contact, the last row saved as primary is the one (as saving them in order would leave it).
      const winners = new Map<number, Row>();
      for (const row of rows) if (row.is_primary && has(row.contact_id)) winners.set(Number(row.contact_id), row);
      const chosen = [...winners.values()];
      if (chosen.length) {
        await batch
          .db(table)
          .whereIn('contact_id', [...winners.keys()])
          .where('is_primary', true)
          .whereNotIn(
            'id',
            chosen.map((row) => Number(row.id)),
          )
          .update({ is_primary: false });
        await rules.onPrimaries?.(chosen, batch.db);
      }
      // A contact left without a primary (every row saved as not primary) gets its first block promoted.
      const contacts = ids(rows, 'contact_id');
      if (!contacts.length) return;
      const lacking = (await batch
        .db(table)
        .select('contact_id')
        .min({ first: 'id' })
        .whereIn('contact_id', contacts)
        .groupBy('contact_id')
        .havingRaw('not bool_or(is_primary)')) as { first: number }[];
      if (lacking.length)
        await batch
          .db(table)
          .whereIn(
            'id',
            lacking.map((row) => Number(row.first)),
          )
          .update({ is_primary: true });
    },
  };
}
