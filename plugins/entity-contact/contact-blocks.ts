/**
 * The lifecycles of a contact's blocks (Email, Phone, Address, Website): the default location type, one
 * primary per contact (promoted again when the primary goes), Email's normalising, bulk-mail flag and
 * name fallback, and Phone's digits-only copy.
 */
import { addressPlaces } from './address-places';
import type { Knex } from 'knex';
import type { EntityRegistry, SaveContext } from '../entity-core';
import { has, type Row } from './row-values';
import { batchedBlockHooks, type BlockRules } from './contact-blocks-batch';

/** Primary rules (§4.5) for the blocks of a contact. */
function blockLifecycle(
  table: string,
  opts: BlockRules & { onPrimary?: (row: Row, sc: SaveContext) => Promise<void> },
) {
  const promote = async (db: Knex, contactId: unknown) => {
    const hasPrimary = await db(table).where({ contact_id: contactId, is_primary: true }).first('id');
    if (hasPrimary) return;
    const first = (await db(table)
      .where({ contact_id: contactId })
      .orderBy([{ column: 'is_primary', order: 'desc' }, { column: 'id' }])
      .first('id')) as { id: number } | undefined;
    if (first) await db(table).where('id', first.id).update({ is_primary: true });
  };
  return {
    ...batchedBlockHooks(table, opts),
    async beforeSave(values: Row, sc: SaveContext) {
      opts.normalise?.(values);
      if (!sc.existing && opts.locationDefault && !has(values.location_type_id)) {
        const defaults = await sc.entities.get('LocationType', { where: { is_default: 1 }, select: ['id'] });
        values.location_type_id = defaults.length ? Number(defaults[0].id) : 1;
      }
      if (!opts.primary) return values;
      const contactId = values.contact_id ?? sc.existing?.contact_id;
      if (!has(contactId)) return values;
      const explicit = 'is_primary' in sc.params;
      if (!values.is_primary && (!sc.existing || explicit)) {
        const others = await sc
          .db(table)
          .where('contact_id', contactId as number)
          .modify((q) => {
            if (sc.existing) q.whereNot('id', sc.existing.id as number);
          })
          .first('id');
        if (!others) values.is_primary = 1;
      }
      if (sc.existing && !explicit) delete values.is_primary;
      return values;
    },
    async afterSave(row: Row, sc: SaveContext) {
      if (!opts.primary) return;
      if (row.is_primary) {
        await sc
          .db(table)
          .where('contact_id', row.contact_id as number)
          .whereNot('id', row.id as number)
          .update({ is_primary: false });
        await opts.onPrimary?.(row, sc);
      }
      await promote(sc.db, row.contact_id);
    },
    async beforeDelete(row: Row, sc: SaveContext) {
      await sc
        .db(table)
        .where('id', row.id as number)
        .del();
      if (opts.primary && row.is_primary) await promote(sc.db, row.contact_id);
      return 'handled' as const;
    },
  };
}

/** Lets Email, Phone, Address and Website saves and deletes follow the primary rules. */
export function extendContactBlocks(entities: EntityRegistry): void {
  const email = blockLifecycle('crm_email', {
    primary: true,
    locationDefault: true,
    normalise: (v) => {
      if (typeof v.email === 'string') v.email = v.email.trim().toLowerCase();
      if (v.on_hold !== undefined && Number(v.on_hold) > 0 && !has(v.hold_date)) v.hold_date = new Date();
    },
    // A contact without a name takes its primary email as display and sort name.
    onPrimary: async (row, sc) => {
      const c = (await sc
        .db('crm_contact')
        .where('id', row.contact_id as number)
        .first('contact_type', 'first_name', 'middle_name', 'last_name')) as Row | undefined;
      if (c && c.contact_type === 'Individual' && !has(c.first_name) && !has(c.middle_name) && !has(c.last_name)) {
        await sc
          .db('crm_contact')
          .where('id', row.contact_id as number)
          .update({ display_name: row.email, sort_name: row.email });
      }
    },
    onPrimaries: async (rows, db) => {
      // Both sides by key (the contacts' ids are in the rows): filtered on the empty names alone, the planner
      // walked every contact (~17 ms a batch at 100,000 contacts, growing with the table).
      await db.raw(
        `update crm_contact c set display_name = e.email, sort_name = e.email from crm_email e
         where c.id = any(?::int[]) and e.id = any(?::int[]) and c.id = e.contact_id and c.contact_type = 'Individual'
           and coalesce(c.first_name, '') = '' and coalesce(c.middle_name, '') = '' and coalesce(c.last_name, '') = ''`,
        [rows.map((row) => Number(row.contact_id)), rows.map((row) => Number(row.id))],
      );
    },
  });
  entities.extend('Email', {
    ...email,
    // is_bulkmail is one per contact.
    async afterSave(row, sc) {
      await email.afterSave(row, sc);
      if (row.is_bulkmail)
        await sc
          .db('crm_email')
          .where('contact_id', row.contact_id as number)
          .whereNot('id', row.id as number)
          .update({ is_bulkmail: false });
    },
    async afterSaveMany(rows, batch) {
      await email.afterSaveMany(rows, batch);
      const flagged = new Map<number, number>();
      for (const row of rows) if (row.is_bulkmail) flagged.set(Number(row.contact_id), Number(row.id));
      if (flagged.size)
        await batch
          .db('crm_email')
          .whereIn('contact_id', [...flagged.keys()])
          .whereNotIn('id', [...flagged.values()])
          .update({ is_bulkmail: false });
    },
  });
  entities.extend(
    'Phone',
    blockLifecycle('crm_phone', {
      primary: true,
      locationDefault: true,
      normalise: (v) => {
        if (typeof v.phone === 'string') v.phone_numeric = v.phone.replace(/\D/g, '');
      },
    }),
  );
  entities.extend('Address', blockLifecycle('crm_address', { primary: true, locationDefault: true }));
  entities.extend('Address', addressPlaces);
  entities.extend('Website', blockLifecycle('crm_website', { primary: false, locationDefault: false }));
}
