/** mailer's public surface: the service's types and the drivers (for plugins that add their own). */
export type { Mailer, MailAttachment, MailDriver, MailMessage, SendResult, MailerConfig } from './types';
export { fileDriver, smtpDriver } from './drivers';
