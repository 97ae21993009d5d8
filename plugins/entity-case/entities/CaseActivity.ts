/** CaseActivity: an activity filed on a case (the case's timeline and everything recorded on it). */
import type { EntityDef } from '../../entity-core';
import { CASE_PERMISSIONS } from './permissions';

const CaseActivity: EntityDef = {
  name: 'CaseActivity',
  table: 'crm_case_activity',
  description: 'An activity filed on a case',
  permissions: { ...CASE_PERMISSIONS, create: CASE_PERMISSIONS.default, delete: CASE_PERMISSIONS.default },
  fields: [
    { name: 'id', type: 'Int', title: 'Case Activity ID', required: true, readonly: true },
    {
      name: 'case_id',
      type: 'Int',
      title: 'Case ID',
      required: true,
      apiRequired: true,
      fk: 'Case',
      onDelete: 'cascade',
    },
    {
      name: 'activity_id',
      type: 'Int',
      title: 'Activity ID',
      required: true,
      apiRequired: true,
      fk: 'Activity',
      onDelete: 'cascade',
    },
  ],
  indexes: [{ name: 'UI_case_activity_id', fields: ['case_id', 'activity_id'], unique: true }],
};

export default CaseActivity;
