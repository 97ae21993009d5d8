/** The mailer's drivers: SMTP through nodemailer, and a file per message for tests and development. */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { MailDriver, MailerConfig, MailMessage, SendResult } from './types';

/** SMTP: one pooled transport; the password goes to nodemailer only, never to a log line. */
export function smtpDriver(config: MailerConfig): MailDriver {
  // nodemailer (~40 modules) is loaded by the first message sent, not at every start.
  let transport: Promise<Transporter> | undefined;
  const connect = async () =>
    (await import('nodemailer')).default.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure,
      requireTLS: config.requireTLS,
      ignoreTLS: !config.secure && !config.requireTLS,
      auth: config.user ? { user: config.user, pass: config.password ?? '' } : undefined,
      pool: true,
      maxConnections: 1,
      logger: false,
    });
  return {
    async send(message: MailMessage): Promise<SendResult> {
      const info = await (await (transport ??= connect())).sendMail(message);
      return { messageId: String(info.messageId), accepted: (info.accepted ?? []).length > 0 };
    },
    close: () => void transport?.then((t) => t.close()),
  };
}

/** A folder of messages: one JSON file each (`<time>-<uuid>.json`), what tests read back. */
export function fileDriver(directory: string): MailDriver {
  return {
    async send(message: MailMessage): Promise<SendResult> {
      await mkdir(directory, { recursive: true });
      const messageId = `<${randomUUID()}@crm.local>`;
      const name = `${Date.now()}-${randomUUID()}.json`;
      const attachments = message.attachments?.map((file) => ({ ...file, content: file.content.toString('base64') }));
      const stored = { messageId, ...message, ...(attachments ? { attachments } : {}) };
      await writeFile(path.join(directory, name), JSON.stringify(stored, null, 2), { mode: 0o600 });
      return { messageId, accepted: true };
    },
  };
}
