/** Bench data beyond contacts, for the scenarios of other plugins (a group's members, …). */
import type { Knex } from 'knex';

/** Whether the (plugin's) table is there: extras are seeded only for the plugins the database has. */
async function hasTable(db: Knex, table: string): Promise<boolean> {
  const { rows } = (await db.raw('select to_regclass(?) as found', [table])) as { rows: Array<{ found: unknown }> };
  return rows[0]?.found !== null && rows[0]?.found !== undefined;
}

/**
 * Data beyond contacts for the scenarios of other plugins, each seeded once (a seeded database made before
 * an extra existed gets it on its next run): a group holding every 20th contact.
 */
export async function seedExtras(db: Knex, log: (m: string) => void): Promise<{ groupId?: number }> {
  const out: { groupId?: number } = {};
  if (await hasTable(db, 'crm_group_contact')) {
    let group = (await db('crm_group').where({ name: 'bench_group' }).first('id')) as { id: number } | undefined;
    if (!group) {
      log('bench: seeding a group of every 20th contact');
      await db.transaction(async (trx) => {
        [group] = (await trx('crm_group')
          .insert({ name: 'bench_group', title: 'Bench group', frontend_title: 'Bench group' })
          .returning('id')) as Array<{ id: number }>;
        await trx.raw(
          `insert into crm_group_contact (group_id, contact_id, status)
           select ?, id, 'Added' from crm_contact where id % 20 = 0`,
          [group!.id],
        );
      });
      await db.raw('analyze crm_group_contact');
    }
    out.groupId = Number(group!.id);
  }
  return out;
}
