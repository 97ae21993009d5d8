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

/**
 * The contacts among `?` that hold a block of the table: one index probe each (lateral, `limit 1`). As one list
 * the planner chose a scan of the whole table (~4 ms a batch at 100,000 contacts, growing with it).
 */
const HOLDING = (table: string) =>
  `select k.id from unnest(?::int[]) as k(id) cross join lateral (select 1 from ${table} b where b.contact_id = k.id limit 1) b`;

export function batchedBlockHooks(table: string, rules: BlockRules) {
  /** Per batch: the contacts that held blocks of this table before it (read by beforeSaveMany). */
  const heldBefore = new WeakMap<BatchSaveContext, Set<number>>();
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
          ? ((await batch.db.raw(HOLDING(table), [contacts])).rows as Row[]).map((row) => Number(row.id))
          : [],
      );
      heldBefore.set(batch, new Set(holding));
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
      const primaries = new Map<number, number>();
      for (const row of rows)
        if (row.is_primary && has(row.contact_id)) {
          const contact = Number(row.contact_id);
          winners.set(contact, row);
          primaries.set(contact, (primaries.get(contact) ?? 0) + 1);
        }
      // Another primary can only be there if the contact held blocks before the batch, or the batch gave it two:
      // a batch of new contacts' first blocks (an import) sends no UPDATE, so no re-read of the rows either.
      const held = heldBefore.get(batch);
      const demoted = [...winners.keys()].filter(
        (contact) => !held || held.has(contact) || primaries.get(contact)! > 1,
      );
      if (demoted.length)
        await batch
          .db(table)
          .whereRaw('contact_id = any(?::int[])', [demoted])
          .where('is_primary', true)
          .whereRaw('not (id = any(?::int[]))', [demoted.map((contact) => Number(winners.get(contact)!.id))])
          .update({ is_primary: false });
      if (winners.size) await rules.onPrimaries?.([...winners.values()], batch.db);
      // A contact left without a primary (every row saved as not primary) gets its first block promoted; one
      // with a primary row in the batch keeps it.
      const contacts = ids(rows, 'contact_id').filter((contact) => !winners.has(contact));
      if (!contacts.length) return;
      const lacking = (await batch
        .db(table)
        .select('contact_id')
        .min({ first: 'id' })
        .whereRaw('contact_id = any(?::int[])', [contacts])
        .groupBy('contact_id')
        .havingRaw('not bool_or(is_primary)')) as { first: number }[];
      if (lacking.length)
        await batch
          .db(table)
          .whereRaw('id = any(?::int[])', [lacking.map((row) => Number(row.first))])
          .update({ is_primary: true });
    },
  };
}
