/** Bench data beyond contacts, for the scenarios of other plugins (a group's members, …). */
import type { Knex } from 'knex';
import { fillBenchCustomData } from './seed-custom';

/** Whether the (plugin's) table is there: extras are seeded only for the plugins the database has. */
async function hasTable(db: Knex, table: string): Promise<boolean> {
  const { rows } = (await db.raw('select to_regclass(?) as found', [table])) as { rows: Array<{ found: unknown }> };
  return rows[0]?.found !== null && rows[0]?.found !== undefined;
}

/**
 * Data beyond contacts for the scenarios of other plugins, each seeded once (a seeded database made before
 * an extra existed gets it on its next run): a group holding every 20th contact, and an activity for every
 * 10th contact (a meeting with that contact as target and the first contact as source).
 */
export async function seedExtras(
  db: Knex,
  log: (m: string) => void,
): Promise<{ groupId?: number; customData?: boolean; contributorId?: number }> {
  const out: { groupId?: number; customData?: boolean; contributorId?: number } = {};
  await seedActivities(db, log);
  out.customData = await fillBenchCustomData(db, log);
  out.contributorId = await seedContributions(db, log);
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

async function seedActivities(db: Knex, log: (m: string) => void): Promise<void> {
  if (!(await hasTable(db, 'crm_activity_contact'))) return;
  if (await db('crm_activity').where({ subject: 'Bench meeting' }).first('id')) return;
  log('bench: seeding an activity for every 10th contact');
  await db.transaction(async (trx) => {
    await trx.raw(
      `insert into crm_activity (activity_type_id, subject, status_id, details)
       select 1, 'Bench meeting', 2, 'with contact ' || id from crm_contact where id % 10 = 0 order by id`,
    );
    await trx.raw(
      `insert into crm_activity_contact (activity_id, contact_id, record_type_id)
       select a.id, c.id, 3 from crm_activity a join crm_contact c on a.details = 'with contact ' || c.id
       union all
       select a.id, (select min(id) from crm_contact), 2 from crm_activity a where a.subject = 'Bench meeting'`,
    );
  });
  await db.raw('analyze crm_activity');
  await db.raw('analyze crm_activity_contact');
}

/** A Completed donation (with its line item) from every 10th contact; answers the contact that creates pay for. */
async function seedContributions(db: Knex, log: (m: string) => void): Promise<number | undefined> {
  if (!(await hasTable(db, 'crm_contribution'))) return undefined;
  const first = (await db('crm_contact').min('id as id').first()) as { id: number } | undefined;
  if (await db('crm_contribution').where({ source: 'Bench donation' }).first('id')) return first?.id;
  log('bench: seeding a donation from every 10th contact');
  await db.transaction(async (trx) => {
    await trx.raw(
      `insert into crm_contribution (contact_id, financial_type_id, total_amount, net_amount, currency, source,
         contribution_status_id, receive_date)
       select c.id, (select id from crm_financial_type where name = 'Donation'), 10 + (c.id % 90), 10 + (c.id % 90),
         'USD', 'Bench donation', 1, now()
       from crm_contact c where c.id % 10 = 0`,
    );
    await trx.raw(
      `insert into crm_line_item (entity_table, entity_id, contribution_id, label, qty, unit_price, line_total,
         financial_type_id, non_deductible_amount)
       select 'civicrm_contribution', id, id, 'Contribution Amount', 1, total_amount, total_amount, financial_type_id, 0
       from crm_contribution where source = 'Bench donation'`,
    );
  });
  await db.raw('analyze crm_contribution');
  await db.raw('analyze crm_line_item');
  return first?.id;
}
