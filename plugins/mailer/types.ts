/** The mailer's message, driver and options types. */

/** A file sent with a message. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text?: string;
  html?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

/** What a driver answers for one message: the id it was given, and whether the server accepted the recipient. */
export interface SendResult {
  messageId: string;
  accepted: boolean;
}

/** A way to send: SMTP, a folder of files, or anything a plugin supplies. */
export interface MailDriver {
  send(message: MailMessage): Promise<SendResult>;
  close?(): void;
}

export interface MailerConfig {
  driver: 'smtp' | 'file';
  host: string;
  port: number;
  secure: boolean;
  requireTLS: boolean;
  user?: string;
  /** A secret: never logged (host/log.ts redacts `password`), never returned by any action. */
  password?: string;
  directory?: string;
  fromEmail: string;
  fromName: string;
}

/** The `mailer` service. */
export interface Mailer {
  send(message: MailMessage): Promise<SendResult>;
  /** The default sender (the reference's domain from-address). */
  readonly from: { email: string; name: string };
}
