/** Membership: a contact's membership of a type, with its dates and status (calculated in ../membership-lifecycle.ts). */
import type { EntityDef } from '../../entity-core';
import { flag, id, MEMBER_RECORDS, text } from './fields';

const Membership: EntityDef = {
  name: 'Membership',
  table: 'crm_membership',
  description: "Records of contacts belonging to an organization's membership program",
  labelField: 'source',
  // Row access follows the member (users' contact row rule through ownerField).
  ownerField: 'contact_id',
  permissions: MEMBER_RECORDS,
  fields: [
    id('Membership ID', 'membership_id'),
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
      uniqueName: 'membership_contact_id',
    },
    {
      name: 'membership_type_id',
      type: 'Int',
      title: 'Membership Type ID',
      required: true,
      apiRequired: true,
      fk: 'MembershipType',
      onDelete: 'cascade',
      aliases: ['membership_type'],
      pseudoEntity: { entity: 'MembershipType', labelField: 'name', nameField: 'name' },
    },
    { name: 'join_date', type: 'Date', title: 'Member Since', uniqueName: 'membership_join_date' },
    { name: 'start_date', type: 'Date', title: 'Membership Start Date', uniqueName: 'membership_start_date' },
    { name: 'end_date', type: 'Date', title: 'Membership Expiration Date', uniqueName: 'membership_end_date' },
    text('source', 'Membership Source', 128, { uniqueName: 'membership_source' }),
    {
      name: 'status_id',
      type: 'Int',
      title: 'Status ID',
      // Calculated from the dates when not given (see membership-lifecycle.ts).
      required: true,
      fk: 'MembershipStatus',
      onDelete: 'cascade',
      aliases: ['membership_status'],
      pseudoEntity: { entity: 'MembershipStatus', labelField: 'label', nameField: 'name' },
    },
    flag('is_override', 'Status Override', false, { uniqueName: 'member_is_override' }),
    { name: 'status_override_end_date', type: 'Date', title: 'Status Override End Date' },
    { name: 'owner_membership_id', type: 'Int', title: 'Primary Member ID', fk: 'Membership', onDelete: 'set null' },
    { name: 'max_related', type: 'Int', title: 'Max Related' },
    flag('is_test', 'Test', false, { uniqueName: 'member_is_test' }),
    flag('is_pay_later', 'Is Pay Later', false, { uniqueName: 'member_is_pay_later' }),
    {
      name: 'contribution_recur_id',
      type: 'Int',
      title: 'Recurring Contribution ID',
      fk: 'ContributionRecur',
      onDelete: 'set null',
      uniqueName: 'membership_recur_id',
    },
    { name: 'campaign_id', type: 'Int', title: 'Campaign ID', uniqueName: 'member_campaign_id' },
  ],
  indexes: [
    { name: 'index_owner_membership_id', fields: ['owner_membership_id'] },
    { name: 'contact', fields: ['contact_id'] },
  ],
};

export default Membership;
