/** Dashboard: a dashlet contacts may place on their home page (4.4.x). */
import type { EntityDef } from '../../entity-core';

const Dashboard: EntityDef = {
  name: 'Dashboard',
  table: 'crm_dashboard',
  description: 'Dashlets: blocks of content a contact may show on the home page',
  labelField: 'label',
  permissions: { get: 'access CRM', meta: 'access CRM', default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'DashletID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Dashlet Name', maxlength: 64, description: 'Internal name of dashlet.' },
    { name: 'label', type: 'String', title: 'Dashlet Title', maxlength: 255, apiRequired: true },
    {
      name: 'url',
      type: 'String',
      title: 'Dashlet URL',
      maxlength: 255,
      description: 'url in case of external dashlet',
    },
    {
      name: 'permission',
      type: 'String',
      title: 'Dashlet Permission',
      maxlength: 255,
      serialize: 'json',
      description: 'Permissions needed to see the dashlet (a list)',
    },
    {
      name: 'permission_operator',
      type: 'String',
      title: 'Dashlet Permission Operator',
      maxlength: 3,
      options: { AND: 'And', OR: 'Or' },
    },
    { name: 'fullscreen_url', type: 'String', title: 'Fullscreen URL', maxlength: 255 },
    { name: 'is_active', type: 'Boolean', title: 'Is Dashlet Active?', required: true, default: false, apiDefault: 0 },
    {
      name: 'is_reserved',
      type: 'Boolean',
      title: 'Is Dashlet Reserved?',
      required: true,
      default: false,
      apiDefault: 0,
    },
    {
      name: 'cache_minutes',
      type: 'Int',
      title: 'Cache Minutes',
      required: true,
      default: 60,
      apiDefault: 60,
      description: 'Number of minutes to cache dashlet content in browser localStorage.',
    },
    { name: 'directive', type: 'String', title: 'Angular directive', maxlength: 255 },
  ],
  indexes: [{ name: 'name', fields: ['name'] }],
};

export default Dashboard;
