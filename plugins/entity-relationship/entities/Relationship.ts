/** Relationship: contact A is (relationship type) of contact B, between optional dates. */
import type { EntityDef, FieldDef } from '../../entity-core';

const contact = (name: string, title: string): FieldDef => ({
  name,
  type: 'Int',
  title,
  required: true,
  apiRequired: true,
  fk: 'Contact',
  onDelete: 'cascade',
});
const permission = (name: string, title: string): FieldDef => ({
  name,
  type: 'Int',
  title,
  required: true,
  default: 0,
  apiDefault: 0,
  options: { 0: 'None', 1: 'View only', 2: 'View and update' },
});
const EDIT = { allOf: ['access CRM', 'edit all contacts'] };

const Relationship: EntityDef = {
  name: 'Relationship',
  table: 'crm_relationship',
  description: 'Relationship between any 2 types of contacts',
  // §6.2: reading is left to row access (either contact); writes need edit all contacts (delete too, 4.7.0).
  permissions: { get: 'public', create: EDIT, update: EDIT, delete: EDIT, default: EDIT, meta: 'access CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Relationship ID', required: true, readonly: true },
    contact('contact_id_a', 'Contact A'),
    contact('contact_id_b', 'Contact B'),
    {
      name: 'relationship_type_id',
      type: 'Int',
      title: 'Relationship Type',
      required: true,
      apiRequired: true,
      fk: 'RelationshipType',
      onDelete: 'cascade',
      pseudoEntity: { entity: 'RelationshipType', labelField: 'label_a_b', nameField: 'name_a_b' },
    },
    { name: 'start_date', type: 'Date', title: 'Relationship Start Date', uniqueName: 'relationship_start_date' },
    { name: 'end_date', type: 'Date', title: 'Relationship End Date', uniqueName: 'relationship_end_date' },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Relationship Is Active',
      required: true,
      default: true,
      apiDefault: 1,
    },
    { name: 'description', type: 'String', title: 'Relationship Description', maxlength: 255 },
    permission('is_permission_a_b', 'Contact A has Permission Over Contact B'),
    permission('is_permission_b_a', 'Contact B has Permission Over Contact A'),
    { name: 'case_id', type: 'Int', title: 'Case ID' },
    { name: 'created_date', type: 'Timestamp', title: 'Created Date', readonly: true, default: { sql: 'now' } },
    { name: 'modified_date', type: 'Timestamp', title: 'Modified Date', readonly: true, default: { sql: 'now' } },
  ],
  indexes: [
    { name: 'index_contact_a', fields: ['contact_id_a'] },
    { name: 'index_contact_b', fields: ['contact_id_b'] },
  ],
};

export default Relationship;
