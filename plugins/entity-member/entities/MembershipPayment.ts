/** MembershipPayment: the contribution that paid for a membership (completing it brings a Pending one to life). */
import type { EntityDef } from '../../entity-core';
import { id, MEMBER_PAYMENTS } from './fields';

const MembershipPayment: EntityDef = {
  name: 'MembershipPayment',
  table: 'crm_membership_payment',
  description: 'The link between a membership and a contribution paying for it',
  // Row access follows the membership's contact.
  ownerField: 'membership_id.contact_id',
  permissions: MEMBER_PAYMENTS,
  fields: [
    id('Membership Payment ID'),
    {
      name: 'membership_id',
      type: 'Int',
      title: 'Membership ID',
      required: true,
      apiRequired: true,
      fk: 'Membership',
      onDelete: 'cascade',
    },
    { name: 'contribution_id', type: 'Int', title: 'Contribution ID', fk: 'Contribution', onDelete: 'cascade' },
  ],
  indexes: [{ name: 'UI_contribution_membership', fields: ['contribution_id', 'membership_id'], unique: true }],
};

export default MembershipPayment;
