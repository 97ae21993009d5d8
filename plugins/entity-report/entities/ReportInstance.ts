/** ReportInstance: a saved report (a template's criteria and presentation), 4.4.0 API. */
import type { EntityDef } from '../../entity-core';

const ReportInstance: EntityDef = {
  name: 'ReportInstance',
  table: 'crm_report_instance',
  description: 'Users can save their report instance and put in a cron tab etc.',
  labelField: 'title',
  permissions: { get: 'access CRM', meta: 'access CRM', default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Report Instance ID', required: true, readonly: true },
    { name: 'title', type: 'String', title: 'Report Instance Title', maxlength: 255 },
    {
      name: 'report_id',
      type: 'String',
      title: 'Report template ID',
      maxlength: 512,
      required: true,
      apiRequired: true,
    },
    { name: 'name', type: 'String', title: 'Report instance Name', maxlength: 255 },
    { name: 'args', type: 'String', title: 'Report Instance Arguments', maxlength: 255 },
    { name: 'description', type: 'String', title: 'Report Instance description', maxlength: 255 },
    { name: 'permission', type: 'String', title: 'Report Instance Permissions', maxlength: 255 },
    {
      name: 'grouprole',
      type: 'String',
      title: 'Report Instance Assigned to Roles',
      maxlength: 1024,
      serialize: 'separator',
    },
    {
      name: 'form_values',
      type: 'Json',
      title: 'Submitted Form Values',
      description: "The report's criteria, as a structure",
    },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Report Instance is Active',
      required: true,
      default: true,
      apiDefault: 1,
    },
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'owner_id', type: 'Int', title: 'Owned By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'email_subject', type: 'String', title: 'Report Instance email Subject', maxlength: 255 },
    { name: 'email_to', type: 'Text', title: 'Email Report Instance To' },
    { name: 'email_cc', type: 'Text', title: 'cc Email Report Instance To' },
    { name: 'header', type: 'Text', title: 'Report Instance Header' },
    { name: 'footer', type: 'Text', title: 'Report Instance Footer' },
    { name: 'drilldown_id', type: 'Int', title: 'Drilldown Report ID', fk: 'ReportInstance', onDelete: 'set null' },
    {
      name: 'is_reserved',
      type: 'Boolean',
      title: 'Instance is Reserved',
      required: true,
      default: false,
      apiDefault: 0,
    },
  ],
};

export default ReportInstance;
