/** ParticipantPayment: the contribution that pays for a participant's registration. */
import type { EntityDef } from '../../entity-core';
import { id, PARTICIPANT_PERMISSIONS } from './fields';

const ParticipantPayment: EntityDef = {
  name: 'ParticipantPayment',
  table: 'crm_participant_payment',
  description: 'Links a participant to the contribution paying for the registration',
  // Row access follows the participant's contact.
  ownerField: 'participant_id.contact_id',
  permissions: PARTICIPANT_PERMISSIONS,
  fields: [
    id('Payment ID'),
    {
      name: 'participant_id',
      type: 'Int',
      title: 'Participant ID',
      required: true,
      apiRequired: true,
      fk: 'Participant',
      onDelete: 'cascade',
    },
    {
      name: 'contribution_id',
      type: 'Int',
      title: 'Contribution ID',
      required: true,
      apiRequired: true,
      fk: 'Contribution',
      onDelete: 'cascade',
    },
  ],
  indexes: [{ name: 'UI_contribution_participant', fields: ['contribution_id', 'participant_id'], unique: true }],
};

export default ParticipantPayment;
