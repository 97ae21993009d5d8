/** MembershipType: a kind of membership, its owner organisation, fee and the rules for its dates. */
import type { EntityDef } from '../../entity-core';
import { flag, id, MEMBER_RECORDS, text } from './fields';

const MembershipType: EntityDef = {
  name: 'MembershipType',
  table: 'crm_membership_type',
  description: 'A kind of membership: owner organisation, fee, and how long a term lasts (rolling or fixed periods)',
  labelField: 'name',
  permissions: MEMBER_RECORDS,
  fields: [
    id('Membership Type ID'),
    text('name', 'Membership Type', 128, { required: true, apiRequired: true, uniqueName: 'membership_type' }),
    // Filled from the name when not given (register.ts), as the reference falls back.
    text('title', 'Membership Type Title'),
    text('frontend_title', 'Membership Type Frontend Title'),
    text('description', 'Description'),
    {
      name: 'member_of_contact_id',
      type: 'Int',
      title: 'Organization ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'restrict',
    },
    {
      name: 'financial_type_id',
      type: 'Int',
      title: 'Financial Type ID',
      required: true,
      apiRequired: true,
      fk: 'FinancialType',
      onDelete: 'restrict',
      pseudoEntity: { entity: 'FinancialType', labelField: 'name', nameField: 'name' },
    },
    { name: 'minimum_fee', type: 'Money', title: 'Minimum Fee', precision: [18, 9], default: 0, apiDefault: 0 },
    {
      name: 'duration_unit',
      type: 'String',
      title: 'Membership Type Duration Unit',
      maxlength: 8,
      required: true,
      apiRequired: true,
      options: { day: 'day', month: 'month', year: 'year', lifetime: 'lifetime' },
    },
    { name: 'duration_interval', type: 'Int', title: 'Membership Type Duration Interval' },
    {
      name: 'period_type',
      type: 'String',
      title: 'Membership Type Plan',
      maxlength: 8,
      required: true,
      apiRequired: true,
      options: { rolling: 'Rolling', fixed: 'Fixed' },
    },
    { name: 'fixed_period_start_day', type: 'Int', title: 'Fixed Period Start Day' },
    { name: 'fixed_period_rollover_day', type: 'Int', title: 'Fixed Period Rollover Day' },
    text('relationship_type_id', 'Membership Type Relationship', 64, { serialize: true }),
    text('relationship_direction', 'Relationship Direction', 128, { serialize: true }),
    { name: 'max_related', type: 'Int', title: 'Max Related Members for Type' },
    text('visibility', 'Visible', 64, { options: { Public: 'Public', Admin: 'Admin' } }),
    { name: 'weight', type: 'Int', title: 'Order' },
    text('receipt_text_signup', 'Membership Type Receipt Text'),
    text('receipt_text_renewal', 'Membership Type Renewal Text'),
    {
      name: 'auto_renew',
      type: 'Int',
      title: 'Auto Renew',
      default: 0,
      apiDefault: 0,
      options: { 0: 'No auto-renew option', 1: 'Give option, but not required', 2: 'Auto-renew required' },
    },
    flag('is_active', 'Is Active', true, { required: false }),
  ],
  indexes: [
    { name: 'index_relationship_type_id', fields: ['relationship_type_id'] },
    { name: 'UI_name', fields: ['name'], unique: true },
  ],
};

export default MembershipType;
