/** DashboardContact: a dashlet on one contact's home page, its column and position (4.4.x). */
import type { EntityDef } from '../../entity-core';

const DashboardContact: EntityDef = {
  name: 'DashboardContact',
  table: 'crm_dashboard_contact',
  description: "A dashlet placed on a contact's dashboard",
  // Row access follows the contact (as for Email): who may edit the contact may arrange its dashboard.
  ownerField: 'contact_id',
  permissions: {
    get: 'access CRM',
    create: 'access CRM',
    update: 'access CRM',
    delete: 'access CRM',
    default: 'access CRM',
  },
  fields: [
    { name: 'id', type: 'Int', title: 'Dashboard Contact ID', required: true, readonly: true },
    {
      name: 'dashboard_id',
      type: 'Int',
      title: 'Dashboard ID',
      required: true,
      apiRequired: true,
      fk: 'Dashboard',
      onDelete: 'cascade',
    },
    {
      name: 'contact_id',
      type: 'Int',
      title: 'Contact ID',
      required: true,
      apiRequired: true,
      fk: 'Contact',
      onDelete: 'cascade',
    },
    {
      name: 'column_no',
      type: 'Int',
      title: 'Column No',
      default: 0,
      apiDefault: 0,
      options: { 0: 'Left', 1: 'Right' },
      description: 'column no for this widget',
    },
    { name: 'is_active', type: 'Boolean', title: 'Dashlet is Active?', required: true, default: false, apiDefault: 0 },
    {
      name: 'weight',
      type: 'Int',
      title: 'Order',
      default: 0,
      apiDefault: 0,
      description: 'Ordering of the dashlets.',
    },
  ],
  indexes: [{ name: 'index_dashboard_id_contact_id', fields: ['dashboard_id', 'contact_id'], unique: true }],
};

export default DashboardContact;
