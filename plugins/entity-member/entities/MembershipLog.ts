/** MembershipLog: what a write did to a membership (signup, renewal, status change), written by the lifecycle. */
import type { EntityDef } from '../../entity-core';
import { id, MEMBER_RECORDS } from './fields';

const MembershipLog: EntityDef = {
  name: 'MembershipLog',
  table: 'crm_membership_log',
  description: 'Logs actions which affect a membership (signup, status override, renewal…)',
  // Row access follows the membership's contact.
  ownerField: 'membership_id.contact_id',
  permissions: MEMBER_RECORDS,
  fields: [
    id('Membership Log ID'),
    {
      name: 'membership_id',
      type: 'Int',
      title: 'Membership ID',
      required: true,
      apiRequired: true,
      fk: 'Membership',
      onDelete: 'cascade',
    },
    {
      name: 'status_id',
      type: 'Int',
      title: 'Membership Status ID',
      required: true,
      apiRequired: true,
      fk: 'MembershipStatus',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'MembershipStatus', labelField: 'label', nameField: 'name' },
    },
    { name: 'start_date', type: 'Date', title: 'Membership Log Start Date' },
    { name: 'end_date', type: 'Date', title: 'Membership Log End Date' },
    { name: 'modified_id', type: 'Int', title: 'Modified By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'modified_date', type: 'Date', title: 'Membership Change Date' },
    {
      name: 'membership_type_id',
      type: 'Int',
      title: 'Membership Type ID',
      fk: 'MembershipType',
      onDelete: 'set null',
    },
    { name: 'max_related', type: 'Int', title: 'Maximum Related Memberships' },
  ],
  indexes: [{ name: 'membership', fields: ['membership_id'] }],
};

export default MembershipLog;
