/**
 * SavedSearch (minimal): the criteria a smart group's members are resolved from at query time. `api_params`
 * is an APIv4 Contact.get's params; only its `where` is used (see the plugin README).
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
    { name: 'api_params', type: 'Json', title: 'API Parameters' },
    { name: 'form_values', type: 'Json', title: 'Submitted Values' },
  ],
  indexes: [{ name: 'name', fields: ['name'], unique: true }],
};

export default SavedSearch;
