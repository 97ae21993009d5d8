/** The reference's install data: the seven membership statuses and their date rules. */
import type { Knex } from 'knex';

/** name, start event, start unit, start interval, end event, end unit, end interval, current, admin, default, reserved. */
type StatusSeed = [string, string | null, string | null, number | null, string | null, string | null, number | null];
const STATUSES: Array<[...StatusSeed, boolean, boolean, boolean, boolean]> = [
  ['New', 'join_date', null, null, 'join_date', 'month', 3, true, false, false, false],
  ['Current', 'start_date', null, null, 'end_date', null, null, true, false, true, false],
  ['Grace', 'end_date', null, null, 'end_date', 'month', 1, true, false, false, false],
  ['Expired', 'end_date', 'month', 1, null, null, null, false, false, false, false],
  ['Pending', 'join_date', null, null, 'join_date', null, null, false, false, false, true],
  ['Cancelled', 'join_date', null, null, 'join_date', null, null, false, false, false, true],
  ['Deceased', null, null, null, null, null, null, false, true, false, true],
];

export async function seedMembershipStatuses(knex: Knex): Promise<void> {
  await knex('crm_membership_status').insert(
    STATUSES.map(([name, startEvent, startUnit, startInterval, endEvent, endUnit, endInterval, ...flags], index) => ({
      name,
      label: name,
      start_event: startEvent,
      start_event_adjust_unit: startUnit,
      start_event_adjust_interval: startInterval,
      end_event: endEvent,
      end_event_adjust_unit: endUnit,
      end_event_adjust_interval: endInterval,
      is_current_member: flags[0],
      is_admin: flags[1],
      is_default: flags[2],
      is_reserved: flags[3],
      is_active: true,
      weight: index + 1,
    })),
  );
}

export const SEEDED_STATUSES = STATUSES.map(([name]) => name);
