/** MailingComponent: headers, footers and the automated messages (unsubscribe, opt-out…) mailings use. */
import type { EntityDef } from '../../entity-core';
import { COMPONENT_PERMISSIONS } from './permissions';

export const COMPONENT_TYPES = {
  Header: 'Header',
  Footer: 'Footer',
  Reply: 'Reply Auto-responder',
  OptOut: 'Opt-out Message',
  Subscribe: 'Subscription Confirmation Request',
  Welcome: 'Welcome Message',
  Unsubscribe: 'Unsubscribe Message',
  Resubscribe: 'Resubscribe Message',
};

const MailingComponent: EntityDef = {
  name: 'MailingComponent',
  table: 'crm_mailing_component',
  description: 'Stores information about the mailing components (header/footer)',
  labelField: 'name',
  permissions: COMPONENT_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Mailing Component ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Component Name', maxlength: 64, apiRequired: true },
    {
      name: 'component_type',
      type: 'String',
      title: 'Mailing Component Type',
      maxlength: 12,
      apiRequired: true,
      options: COMPONENT_TYPES,
    },
    { name: 'subject', type: 'String', title: 'Subject', maxlength: 255 },
    { name: 'body_html', type: 'Text', title: 'Mailing Component Body HTML' },
    { name: 'body_text', type: 'Text', title: 'Body Text' },
    { name: 'is_default', type: 'Boolean', title: 'Mailing Component is Default?', required: true, default: false },
    {
      name: 'is_active',
      type: 'Boolean',
      title: 'Mailing Component Is Active?',
      required: true,
      default: true,
      apiDefault: 1,
    },
  ],
};

export default MailingComponent;
