/**
 * Sending (APIv3 Job.process_mailing): every parent job that is Scheduled with a scheduled date now or
 * earlier is taken (one run at a time per job) and run: its recipients (the stored list, or built now when
 * there is none), one MailingEventQueue row and one message each through the mailer, then the job Complete and the mailing
 * completed. A message the server refuses is counted and logged (contact and error, never credentials).
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../kernel';
import type { Entities } from '../entity-core';
import type { MailAttachment, Mailer } from '../mailer';
import { resolveRecipients, writeRecipients, type Recipient } from './recipients';

type Row = Record<string, unknown>;

/** What a run needs: the transaction, the entities bound to it (trusted), the mailer and a logger. */
export interface SendingDeps {
  db: Knex;
  entities: Entities;
  mailer: Mailer;
  log: Logger;
  /** The mailing's attached files (Job.process_mailing reads them through Attachment.get when entity-file is on). */
  attachments?: (mailingId: number) => Promise<MailAttachment[]>;
}

export interface ProcessResult {
  jobs: number;
  sent: number;
  failed: number;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** `{contact.first_name}` and the like, from the recipient's contact row; unknown tokens are left as they are. */
function tokens(template: string, contact: Row): string {
  return template.replace(/\{contact\.([a-z_]+)\}/g, (whole, name: string) =>
    contact[name] !== undefined && contact[name] !== null ? String(contact[name]) : whole,
  );
}

async function components(entities: Entities, mailing: Row): Promise<{ header: Row; footer: Row }> {
  const one = async (id: unknown) =>
    id ? ((await entities.get('MailingComponent', { where: { id: Number(id) } }))[0] ?? {}) : {};
  return { header: await one(mailing.header_id), footer: await one(mailing.footer_id) };
}

async function recipientsOf(entities: Entities, mailingId: number): Promise<Recipient[]> {
  const rows = await entities.get('MailingRecipients', {
    where: { mailing_id: mailingId },
    select: ['contact_id', 'email_id', 'email_id.email'],
  });
  if (!rows.length) return writeRecipients(entities, mailingId);
  // The stored list, checked again: an address put on hold or a contact opted out since is skipped.
  const usable = new Set((await resolveRecipients(entities, mailingId)).map((r) => r.emailId));
  return rows
    .filter((row) => usable.has(Number(row.email_id)))
    .map((row) => ({
      contactId: Number(row.contact_id),
      emailId: Number(row.email_id),
      email: String(row['email_id.email']),
    }));
}

/**
 * Takes the job (Scheduled → Running) in the run's transaction: a second run at the same time waits on the
 * row until the first commits, then finds it no longer Scheduled and leaves it.
 */
async function claim(db: Knex, jobId: unknown): Promise<boolean> {
  const taken = await db('crm_mailing_job')
    .where({ id: Number(jobId), status: 'Scheduled' })
    .update({ status: 'Running', start_date: new Date() }, ['id']);
  return taken.length === 1;
}

async function runJob(deps: SendingDeps, job: Row, result: ProcessResult) {
  const { entities, mailer, log } = deps;
  const mailingId = Number(job.mailing_id);
  const [mailing] = await entities.get('Mailing', { where: { id: mailingId } });
  if (!mailing || !(await claim(deps.db, job.id))) return;
  const { header, footer } = await components(entities, mailing);
  const html = `${text(header.body_html)}${text(mailing.body_html)}${text(footer.body_html)}`;
  const plain = [text(header.body_text), text(mailing.body_text), text(footer.body_text)].filter(Boolean).join('\n\n');
  const files = deps.attachments ? await deps.attachments(mailingId) : [];
  const from = mailing.from_name
    ? `"${text(mailing.from_name).replace(/"/g, '')}" <${text(mailing.from_email)}>`
    : text(mailing.from_email);
  for (const recipient of await recipientsOf(entities, mailingId)) {
    const hash = randomBytes(8).toString('hex');
    await entities.save('MailingEventQueue', {
      job_id: job.id,
      mailing_id: mailingId,
      contact_id: recipient.contactId,
      email_id: recipient.emailId,
      hash,
    });
    const [contact] = await entities.get('Contact', {
      where: { id: recipient.contactId },
      select: ['id', 'display_name', 'first_name', 'last_name', 'sort_name'],
    });
    try {
      await mailer.send({
        from: from || mailer.from.email,
        to: recipient.email,
        replyTo: text(mailing.replyto_email) || undefined,
        subject: tokens(text(mailing.subject), contact ?? {}),
        html: mailing.body_html ? tokens(html, contact ?? {}) : undefined,
        text: plain ? tokens(plain, contact ?? {}) : undefined,
        headers: { 'X-CRM-Mailing': `${mailingId}.${hash}` },
        ...(files.length ? { attachments: files } : {}),
      });
      result.sent++;
    } catch (err) {
      result.failed++;
      log.warn(
        { mailingId, contactId: recipient.contactId, err: (err as Error).message },
        'mailing: a message was not sent',
      );
    }
  }
  await entities.save('MailingJob', { id: job.id, status: 'Complete', end_date: new Date() });
  await entities.save('Mailing', { id: mailingId, is_completed: true });
  result.jobs++;
}

/** Sends the mailings that are due; what the scheduled-job runner calls (through Job.process_mailing or directly). */
export async function processMailings(deps: SendingDeps, now = new Date()): Promise<ProcessResult> {
  const jobs = await deps.entities.get('MailingJob', {
    where: [
      { path: 'status', op: '=', value: 'Scheduled' },
      { path: 'is_test', op: '=', value: false },
      { path: 'parent_id', op: 'IS NULL' },
      { path: 'scheduled_date', op: '<=', value: now },
    ],
    orderBy: [{ path: 'scheduled_date', dir: 'ASC' }],
  });
  const result: ProcessResult = { jobs: 0, sent: 0, failed: 0 };
  for (const job of jobs) await runJob(deps, job, result);
  return result;
}
