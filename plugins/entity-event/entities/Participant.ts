/**
 * Participant: a contact's registration for an event. APIv3 get answers with the reference's `participant_`
 * keys (`participant_status_id`, `participant_role_id`…), the event's title and dates and the contact's names, as its
 * query object does.
 */
import type { EntityDef } from '../../entity-core';
import { flag, id, int, longText, PARTICIPANT_PERMISSIONS, text, when } from './fields';

const Participant: EntityDef = {
  name: 'Participant',
  table: 'crm_participant',
  description: "Records of contacts' attendance and roles in events",
  // Row access follows the participant's contact (users' contact row rule through ownerField).
  ownerField: 'contact_id',
  permissions: PARTICIPANT_PERMISSIONS,
  uniqueNamesOnGet: true,
  fields: [
    id('Participant ID', 'participant_id'),
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
    {
      name: 'event_id',
      type: 'Int',
      title: 'Event ID',
      required: true,
      apiRequired: true,
      fk: 'Event',
      onDelete: 'cascade',
    },
    {
      name: 'status_id',
      type: 'Int',
      title: 'Status ID',
      required: true,
      default: 1,
      apiDefault: 1,
      fk: 'ParticipantStatusType',
      onDelete: 'restrict',
      uniqueName: 'participant_status_id',
      aliases: ['participant_status'],
      pseudoEntity: { entity: 'ParticipantStatusType', labelField: 'label', nameField: 'name' },
    },
    {
      name: 'role_id',
      type: 'String',
      title: 'Participant Role ID',
      maxlength: 128,
      serialize: 'separator',
      optionGroup: 'participant_role',
      uniqueName: 'participant_role_id',
      aliases: ['participant_role'],
    },
    when('register_date', 'Register date', { uniqueName: 'participant_register_date', apiDefault: 'now' }),
    text('source', 'Participant Source', 128, { uniqueName: 'participant_source' }),
    longText('fee_level', 'Fee level', { uniqueName: 'participant_fee_level', serialize: 'separator' }),
    flag('is_test', 'Test', false, {
      uniqueName: 'participant_is_test',
      aliases: ['participant_test'],
      v3GetDefault: 0,
    }),
    flag('is_pay_later', 'Is Pay Later', false, { uniqueName: 'participant_is_pay_later' }),
    { name: 'fee_amount', type: 'Money', title: 'Fee Amount', uniqueName: 'participant_fee_amount' },
    {
      name: 'registered_by_id',
      type: 'Int',
      title: 'Registered By Participant ID',
      fk: 'Participant',
      onDelete: 'set null',
      uniqueName: 'participant_registered_by_id',
    },
    int('discount_id', 'Discount ID', { uniqueName: 'participant_discount_id' }),
    text('fee_currency', 'Fee Currency', 3, { uniqueName: 'participant_fee_currency' }),
    int('campaign_id', 'Campaign ID', { uniqueName: 'participant_campaign_id' }),
    int('discount_amount', 'Discount Amount'),
    int('cart_id', 'Event Cart ID'),
    int('must_wait', 'Must Wait on List'),
    {
      name: 'transferred_to_contact_id',
      type: 'Int',
      title: 'Transferred to Contact ID',
      fk: 'Contact',
      onDelete: 'set null',
    },
    { name: 'created_id', type: 'Int', title: 'Created by Contact ID', fk: 'Contact', onDelete: 'set null' },
    // The event's title and dates, as the reference's participant query returns them.
    { name: 'event_title', type: 'String', title: 'Event Title', readonly: true, via: 'event_id.title' },
    {
      name: 'event_start_date',
      type: 'Timestamp',
      title: 'Event Start Date',
      readonly: true,
      via: 'event_id.start_date',
    },
    { name: 'event_end_date', type: 'Timestamp', title: 'Event End Date', readonly: true, via: 'event_id.end_date' },
    // And the contact's names and type.
    { name: 'display_name', type: 'String', title: 'Display Name', readonly: true, via: 'contact_id.display_name' },
    { name: 'sort_name', type: 'String', title: 'Sort Name', readonly: true, via: 'contact_id.sort_name' },
    { name: 'contact_type', type: 'String', title: 'Contact Type', readonly: true, via: 'contact_id.contact_type' },
  ],
  indexes: [
    { name: 'index_status_id', fields: ['status_id'] },
    { name: 'index_role_id', fields: ['role_id'] },
    { name: 'contact', fields: ['contact_id'] },
    { name: 'event', fields: ['event_id'] },
  ],
};

// APIv3 get answers every column, the event's title and dates and the contact's names, as the reference's query does.
Participant.defaultReturn = Participant.fields.map((field) => field.name);

export default Participant;
