/**
 * SavedSearch (4.7.0): saved criteria; a smart group's members are resolved from them at query time.
 * `api_params` is an APIv4 get's params (for Contact, only its `where` is used: see the plugin README);
 * `form_values` and `api_params` are structures in both APIs.
 */
import type { EntityDef } from '../../entity-core';

const SavedSearch: EntityDef = {
  name: 'SavedSearch',
  table: 'crm_saved_search',
  description: 'Saved search criteria (smart groups)',
  labelField: 'label',
  permissions: { get: 'access CRM', default: 'administer CRM', meta: 'access CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Saved Search ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Name', maxlength: 255 },
    { name: 'label', type: 'String', title: 'Label', maxlength: 255 },
    { name: 'api_entity', type: 'String', title: 'Entity', maxlength: 255, apiDefault: 'Contact' },
    { name: 'api_params', type: 'Json', title: 'API Parameters', v3Structure: true },
    { name: 'form_values', type: 'Json', title: 'Submitted Values', v3Structure: true },
    {
      name: 'search_custom_id',
      type: 'Int',
      title: 'Option Value ID',
      description: 'Saved custom search (option value)',
    },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    {
      name: 'modified_id',
      type: 'Int',
      title: 'Modified By Contact ID',
      fk: 'Contact',
      onDelete: 'set null',
      readonly: true,
    },
    {
      name: 'expires_date',
      type: 'Timestamp',
      title: 'Search Expiry Date',
      description: 'Optional date after which the search is not needed',
    },
    {
      name: 'created_date',
      type: 'Timestamp',
      title: 'Created Date',
      required: true,
      readonly: true,
      default: { sql: 'now' },
    },
    {
      name: 'modified_date',
      type: 'Timestamp',
      title: 'Modified Date',
      required: true,
      readonly: true,
      default: { sql: 'now' },
    },
    { name: 'description', type: 'Text', title: 'Saved Search Description' },
  ],
  indexes: [{ name: 'name', fields: ['name'], unique: true }],
};

export default SavedSearch;
