/** ActivityContact (4.4.8): a contact's part in an activity — its source, a target or an assignee. */
import type { EntityDef } from '../../entity-core';
import { ACTIVITY_PERMISSIONS } from './permissions';

const ActivityContact: EntityDef = {
  name: 'ActivityContact',
  table: 'crm_activity_contact',
  description: 'The contacts of an activity: who made it (source), whom it concerns (targets), who does it (assignees)',
  permissions: ACTIVITY_PERMISSIONS,
  ownerField: 'contact_id',
  fields: [
    { name: 'id', type: 'Int', title: 'Activity Contact ID', required: true, readonly: true },
    {
      name: 'activity_id',
      type: 'Int',
      title: 'Activity ID',
      required: true,
      apiRequired: true,
      fk: 'Activity',
      onDelete: 'cascade',
    },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID (match to contact)',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
    {
      name: 'record_type_id',
      type: 'Int',
      title: 'Activity Contact Type',
      optionGroup: 'activity_contacts',
      description: '1 assignee, 2 source, 3 target',
    },
  ],
  indexes: [
    { name: 'UI_activity_contact', fields: ['contact_id', 'activity_id', 'record_type_id'], unique: true },
    { name: 'index_record_type', fields: ['activity_id', 'record_type_id'] },
  ],
};

export default ActivityContact;
