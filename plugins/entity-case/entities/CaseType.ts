/** CaseType (4.5): a kind of case, its definition (activity types, timelines, roles, statuses) in the database. */
import type { EntityDef } from '../../entity-core';
import { CASE_TYPE_PERMISSIONS } from './permissions';

const CaseType: EntityDef = {
  name: 'CaseType',
  table: 'crm_case_type',
  description: 'A kind of case and its definition: activity types, activity sets with timelines, case roles, statuses',
  labelField: 'title',
  permissions: CASE_TYPE_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Case Type ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Case Type Name', maxlength: 64, required: true, apiRequired: true },
    { name: 'title', type: 'String', title: 'Case Type Title', maxlength: 64, required: true, apiRequired: true },
    { name: 'description', type: 'String', title: 'Case Type Description', maxlength: 255 },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Case Type Is Active',
      required: true,
      default: true,
      apiDefault: 1,
    },
    { name: 'is_reserved', type: 'Boolean', title: 'Case Type Is Reserved', required: true, default: false },
    { name: 'weight', type: 'Int', title: 'Order', required: true, default: 1, apiDefault: 1 },
    // A structure in both APIs (as SavedSearch's api_params), stored as JSON; its shape is checked on write.
    { name: 'definition', type: 'Json', title: 'Case Type Definition', v3Structure: true },
  ],
  indexes: [{ name: 'case_type_name', fields: ['name'], unique: true }],
};

export default CaseType;
