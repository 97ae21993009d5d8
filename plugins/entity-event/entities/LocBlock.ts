/** LocBlock (4.3.0): an event's location, up to two each of address, email, phone and IM. */
import type { EntityDef, FieldDef } from '../../entity-core';
import { EVENT_PERMISSIONS, id } from './fields';

const ref = (name: string, title: string, entity?: string): FieldDef => ({
  name,
  type: 'Int',
  title,
  ...(entity ? { fk: entity, onDelete: 'set null' as const } : {}),
});

const LocBlock: EntityDef = {
  name: 'LocBlock',
  table: 'crm_loc_block',
  description: 'A block of location details (addresses, emails, phones) an event shows',
  // Only events use location blocks: the same permissions.
  permissions: EVENT_PERMISSIONS,
  fields: [
    id('Location Block ID'),
    ref('address_id', 'Address ID', 'Address'),
    ref('email_id', 'Email ID', 'Email'),
    ref('phone_id', 'Phone ID', 'Phone'),
    ref('im_id', 'IM ID'),
    ref('address_2_id', 'Address 2 ID', 'Address'),
    ref('email_2_id', 'Email 2 ID', 'Email'),
    ref('phone_2_id', 'Phone 2 ID', 'Phone'),
    ref('im_2_id', 'IM 2 ID'),
  ],
};

export default LocBlock;
