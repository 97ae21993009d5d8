/** RelationshipType: a kind of relationship, named from each side (A "Employee of" B, B "Employer of" A). */
import type { EntityDef, FieldDef } from '../../entity-core';

const contactType = (name: string, title: string): FieldDef => ({
  name,
  type: 'String',
  title,
  maxlength: 12,
  options: { Individual: 'Individual', Organization: 'Organization', Household: 'Household' },
});

const RelationshipType: EntityDef = {
  name: 'RelationshipType',
  table: 'crm_relationship_type',
  description:
    'Relationship types s/b structured with contact_a as the "subject/child" contact and contact_b as the "object/parent" contact',
  labelField: 'label_a_b',
  permissions: {
    get: 'access CRM',
    create: 'administer CRM',
    update: 'administer CRM',
    delete: 'administer CRM',
    default: 'administer CRM',
    meta: 'access CRM',
  },
  fields: [
    { name: 'id', type: 'Int', title: 'Relationship Type ID', required: true, readonly: true },
    { name: 'name_a_b', type: 'String', title: 'Relationship Type Name A to B', maxlength: 64, apiRequired: true },
    { name: 'label_a_b', type: 'String', title: 'Relationship Type Label A to B', maxlength: 64 },
    { name: 'name_b_a', type: 'String', title: 'Relationship Type Name B to A', maxlength: 64, apiRequired: true },
    { name: 'label_b_a', type: 'String', title: 'Relationship Type Label B to A', maxlength: 64 },
    { name: 'description', type: 'String', title: 'Relationship Description', maxlength: 255 },
    contactType('contact_type_a', 'Contact Type for Contact A'),
    contactType('contact_type_b', 'Contact Type for Contact B'),
    {
      name: 'contact_sub_type_a',
      type: 'String',
      title: 'Contact Subtype A',
      maxlength: 64,
      optionGroup: 'contact_sub_type',
    },
    {
      name: 'contact_sub_type_b',
      type: 'String',
      title: 'Contact Subtype B',
      maxlength: 64,
      optionGroup: 'contact_sub_type',
    },
    { name: 'is_reserved', type: 'Boolean', title: 'Relationship Type is Reserved', required: true, default: false },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Relationship Type is Active',
      required: true,
      default: true,
      apiDefault: 1,
    },
  ],
  indexes: [
    { name: 'UI_name_a_b', fields: ['name_a_b'], unique: true },
    { name: 'UI_name_b_a', fields: ['name_b_a'], unique: true },
  ],
};

export default RelationshipType;
