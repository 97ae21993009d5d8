/** CaseContact: a client of a case (a case may have several). */
import type { EntityDef } from '../../entity-core';
import { CASE_PERMISSIONS } from './permissions';

const CaseContact: EntityDef = {
  name: 'CaseContact',
  table: 'crm_case_contact',
  description: 'A client of a case',
  permissions: { ...CASE_PERMISSIONS, create: CASE_PERMISSIONS.default, delete: CASE_PERMISSIONS.default },
  fields: [
    { name: 'id', type: 'Int', title: 'Case Contact ID', required: true, readonly: true },
    { name: 'case_id', type: 'Int', title: 'Case', required: true, apiRequired: true, fk: 'Case', onDelete: 'cascade' },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
  ],
  indexes: [{ name: 'UI_case_contact_id', fields: ['case_id', 'contact_id'], unique: true }],
};

export default CaseContact;
