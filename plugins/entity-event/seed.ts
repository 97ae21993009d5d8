/** The reference's install data for events: event types, participant roles and participant statuses. */
import type { Knex } from 'knex';
import { seedOptionGroups, type OptionGroupSeeds } from '../entity-option';

export const EVENT_OPTION_GROUPS: OptionGroupSeeds = {
  event_type: {
    title: 'Event Type',
    values: [
      [1, 'Conference'],
      [2, 'Exhibition'],
      [3, 'Fundraiser'],
      [4, 'Meeting'],
      [5, 'Performance'],
      [6, 'Workshop'],
    ],
  },
  participant_role: {
    title: 'Participant Role',
    values: [
      [1, 'Attendee'],
      [2, 'Volunteer'],
      [3, 'Host'],
      [4, 'Speaker'],
    ],
  },
};

type Status = [name: string, label: string, cls: string, reserved: boolean, active: boolean, counted: boolean];

/** In id (and weight) order; Registered is public, the others are shown to staff only (visibility 2). */
export const PARTICIPANT_STATUSES: Status[] = [
  ['Registered', 'Registered', 'Positive', true, true, true],
  ['Attended', 'Attended', 'Positive', false, true, true],
  ['No-show', 'No-show', 'Negative', false, true, false],
  ['Cancelled', 'Cancelled', 'Negative', true, true, false],
  ['Pending from pay later', 'Pending (pay later)', 'Pending', true, true, true],
  ['Pending from incomplete transaction', 'Pending (incomplete transaction)', 'Pending', true, true, false],
  ['On waitlist', 'On waitlist', 'Waiting', true, false, false],
  ['Awaiting approval', 'Awaiting approval', 'Waiting', true, false, true],
  ['Pending from waitlist', 'Pending from waitlist', 'Pending', true, false, true],
  ['Pending from approval', 'Pending from approval', 'Pending', true, false, true],
  ['Rejected', 'Rejected', 'Negative', true, false, false],
  ['Expired', 'Expired', 'Negative', true, true, false],
  ['Pending in cart', 'Pending in cart', 'Pending', true, true, false],
  ['Partially paid', 'Partially paid', 'Positive', true, true, true],
  ['Pending refund', 'Pending refund', 'Positive', true, true, true],
  ['Transferred', 'Transferred', 'Negative', true, true, false],
];

export async function seedEvents(knex: Knex): Promise<void> {
  await seedOptionGroups(knex, EVENT_OPTION_GROUPS);
  await knex('crm_participant_status_type').insert(
    PARTICIPANT_STATUSES.map(([name, label, cls, reserved, active, counted], i) => ({
      name,
      label,
      class: cls,
      is_reserved: reserved,
      is_active: active,
      is_counted: counted,
      weight: i + 1,
      visibility_id: i === 0 ? 1 : 2,
    })),
  );
}
