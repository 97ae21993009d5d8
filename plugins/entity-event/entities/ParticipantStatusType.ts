/** ParticipantStatusType: the statuses a participant can be in (Registered, Attended, Pending from pay later…). */
import type { EntityDef } from '../../entity-core';
import { flag, id, STATUS_PERMISSIONS, text } from './fields';

const ParticipantStatusType: EntityDef = {
  name: 'ParticipantStatusType',
  table: 'crm_participant_status_type',
  description: 'The statuses of event participants, grouped by class (Positive, Pending, Waiting, Negative)',
  labelField: 'label',
  permissions: STATUS_PERMISSIONS,
  fields: [
    id('Participant Status Type ID'),
    text('name', 'Participant Status', 64, { uniqueName: 'participant_status', apiRequired: true }),
    text('label', 'Participant Status Label'),
    text('class', 'Participant Status Class', 8, {
      options: { Positive: 'Positive', Pending: 'Pending', Waiting: 'Waiting', Negative: 'Negative' },
    }),
    flag('is_reserved', 'Participant Status Is Reserved?', false),
    flag('is_active', 'Participant Status is Active', true),
    flag('is_counted', 'Participant Status Counts?', false),
    { name: 'weight', type: 'Int', title: 'Order', required: true, apiRequired: true },
    { name: 'visibility_id', type: 'Int', title: 'Participant Status Visibility', optionGroup: 'visibility' },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default ParticipantStatusType;
