/** MembershipStatus: a rule naming the dates between which a membership has this status (seeded in ../seed.ts). */
import type { EntityDef } from '../../entity-core';
import { ADJUST_UNITS, EVENT_DATES, flag, id, MEMBER_RECORDS, text } from './fields';

const MembershipStatus: EntityDef = {
  name: 'MembershipStatus',
  table: 'crm_membership_status',
  description: 'Configurable rules assigning a status to memberships by their dates',
  labelField: 'label',
  permissions: MEMBER_RECORDS,
  fields: [
    id('Membership Status ID'),
    text('name', 'Membership Status', 128, { required: true, apiRequired: true, uniqueName: 'membership_status' }),
    text('label', 'Label', 128),
    text('start_event', 'Start Event', 12, { options: EVENT_DATES }),
    text('start_event_adjust_unit', 'Start Event Adjust Unit', 8, { options: ADJUST_UNITS }),
    { name: 'start_event_adjust_interval', type: 'Int', title: 'Start Event Adjust Interval' },
    text('end_event', 'End Event', 12, { options: EVENT_DATES }),
    text('end_event_adjust_unit', 'End Event Adjust Unit', 8, { options: ADJUST_UNITS }),
    { name: 'end_event_adjust_interval', type: 'Int', title: 'End Event Adjust Interval' },
    flag('is_current_member', 'Current Membership?', false),
    flag('is_admin', 'Administrator Only?', false),
    { name: 'weight', type: 'Int', title: 'Order' },
    flag('is_default', 'Default Status?', false),
    flag('is_active', 'Is Active', true),
    flag('is_reserved', 'Is Reserved', false),
  ],
};

export default MembershipStatus;
