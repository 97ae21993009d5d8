/** mailer: the `mailer` service, sending through the configured driver (SMTP or files). */
import path from 'node:path';
import { definePlugin } from '../../kernel';
import { fileDriver, smtpDriver } from './drivers';
import type { MailDriver, Mailer, MailerConfig } from './types';

export default definePlugin<MailerConfig>(({ config, serviceConfig, services, onClose, log }) => {
  const settings = serviceConfig as unknown as { root?: string; dataDir?: string };
  const dataDir = path.resolve(settings.root ?? process.cwd(), settings.dataDir ?? './var');
  // The password may come from the environment instead of the config file.
  const password = config.password ?? process.env.CRM_MAILER_PASSWORD;
  let driver: MailDriver | undefined;
  const current = () => {
    driver ??=
      config.driver === 'smtp'
        ? smtpDriver({ ...config, password })
        : fileDriver(config.directory ?? path.join(dataDir, 'mail'));
    return driver;
  };
  const mailer: Mailer = {
    from: { email: config.fromEmail, name: config.fromName },
    async send(message) {
      const result = await current().send(message);
      // Who and what, never the credentials (the driver holds them).
      log.debug({ to: message.to, subject: message.subject, messageId: result.messageId }, 'mail sent');
      return result;
    },
  };
  services.value('mailer', mailer);
  onClose(() => driver?.close?.());
});
