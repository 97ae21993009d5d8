/** LocationType (option data). */
import type { EntityDef } from '../../entity-core';
import { AC } from './permissions';

const LocationType: EntityDef = {
  name: 'LocationType',
  table: 'crm_location_type',
  labelField: 'display_name',
  fields: [
    { name: 'id', type: 'Int', title: 'Location Type ID', required: true },
    { name: 'name', type: 'String', title: 'Location Type', required: true, apiRequired: true, maxlength: 64 },
    { name: 'display_name', type: 'String', title: 'Display Name', maxlength: 64 },
    { name: 'vcard_name', type: 'String', title: 'vCard Location Type', maxlength: 64 },
    { name: 'description', type: 'String', title: 'Description', maxlength: 255 },
    {
      name: 'is_reserved',
      type: 'Boolean',
      title: 'Location Type is Reserved?',
      apiDefault: 0,
      required: true,
      default: false,
    },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Location Type is Active?',
      apiDefault: 1,
      required: true,
      default: true,
    },
    {
      name: 'is_default',
      type: 'Boolean',
      title: 'Default Location Type?',
      apiDefault: 0,
      required: true,
      default: false,
    },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
  permissions: {
    get: AC,
    create: 'administer CRM',
    update: 'administer CRM data',
    delete: 'administer CRM data',
    default: 'administer CRM',
  },
};

export default LocationType;
