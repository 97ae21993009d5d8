/** MailSettings (OAuth, APIv4 only). */
import type { EntityDef } from '../../entity-core';
import { ts } from './token-fields';

const MailSettings: EntityDef = {
  name: 'MailSettings',
  table: 'crm_mail_settings',
  apis: [4],
  labelField: 'name',
  description: 'A mail account (minimal: enough for the OAuth mail-setup flow)',
  permissions: { meta: 'access CRM', default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Name', maxlength: 255 },
    { name: 'domain', type: 'String', title: 'Email domain', maxlength: 255 },
    { name: 'localpart', type: 'String', title: 'Localpart', maxlength: 255 },
    { name: 'return_path', type: 'String', title: 'Return path', maxlength: 255 },
    {
      name: 'protocol',
      type: 'String',
      title: 'Protocol',
      maxlength: 32,
      options: { IMAP: 'IMAP', POP3: 'POP3', Maildir: 'Maildir', Localdir: 'Localdir' },
    },
    { name: 'server', type: 'String', title: 'Server', maxlength: 255 },
    { name: 'port', type: 'Int', title: 'Port' },
    { name: 'username', type: 'String', title: 'Username', maxlength: 255 },
    { name: 'password', type: 'Text', title: 'Password', secret: ['administer CRM'], encrypted: true },
    { name: 'is_ssl', type: 'Boolean', title: 'Use SSL', apiDefault: 0, required: true, default: false },
    { name: 'auth', type: 'String', title: 'Authentication (Password, XOAuth2)', maxlength: 32 },
    { name: 'is_active', type: 'Boolean', title: 'Enabled', apiDefault: 1, required: true, default: true },
    ts('created_date', 'Created'),
  ],
};

export default MailSettings;
