/** Batch: a named set of records handled together (data entry, export), 4.7.0 API. */
import type { EntityDef } from '../../entity-core';

const Batch: EntityDef = {
  name: 'Batch',
  table: 'crm_batch',
  description: 'Stores the details of a batch operation: data entry of contributions, an export of transactions',
  labelField: 'title',
  permissions: { get: 'access CRM', meta: 'access CRM', default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Batch ID', required: true, readonly: true },
    {
      name: 'name',
      type: 'String',
      title: 'Batch Name',
      maxlength: 64,
      description: 'Variable name/programmatic handle for this batch.',
    },
    { name: 'title', type: 'String', title: 'Batch Title', maxlength: 255, apiRequired: true },
    { name: 'description', type: 'Text', title: 'Batch Description' },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'created_date', type: 'Timestamp', title: 'Batch Created Date', default: { sql: 'now' } },
    { name: 'modified_id', type: 'Int', title: 'Modified By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'modified_date', type: 'Timestamp', title: 'Batch Modified Date' },
    { name: 'saved_search_id', type: 'Int', title: 'Smart Group ID', fk: 'SavedSearch', onDelete: 'set null' },
    {
      name: 'status_id',
      type: 'Int',
      title: 'Batch Status',
      required: true,
      apiRequired: true,
      options: { 1: 'Open', 2: 'Closed', 3: 'Data Entry', 4: 'Reopened', 5: 'Exported' },
    },
    {
      name: 'type_id',
      type: 'Int',
      title: 'Batch Type',
      options: { 1: 'Contribution', 2: 'Membership', 3: 'Pledge Payment' },
    },
    { name: 'mode_id', type: 'Int', title: 'Batch Mode', options: { 1: 'Manual Batch', 2: 'Automatic Batch' } },
    { name: 'total', type: 'Money', title: 'Batch Total', description: 'Total amount for this batch.' },
    { name: 'item_count', type: 'Int', title: 'Batch Number of Items', description: 'Number of items in a batch.' },
    { name: 'payment_instrument_id', type: 'Int', title: 'Batch Payment Method' },
    { name: 'exported_date', type: 'Timestamp', title: 'Batch Exported Date' },
    { name: 'data', type: 'Text', title: 'Batch Data', description: 'cache entered data' },
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default Batch;
