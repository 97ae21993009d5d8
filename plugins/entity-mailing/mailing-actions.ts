/**
 * The mailing family's own APIv3 actions: Mailing.submit (4.6.0: needs scheduled_date), Job.process_mailing
 * (sends what is due) and MailingContact.get / getcount (4.4.0: the mailings a contact was sent).
 */
import type { ActionContext, ActionRegistrar, Logger } from '../../kernel';
import { invalid, mandatoryMissing } from '../api3';
import type { EntityService } from '../entity-core';
import type { MailAttachment, Mailer } from '../mailer';
import { MAILING_PERMISSIONS } from './entities/permissions';
import { processMailings } from './sending';

type Params = Record<string, unknown>;
const has = (value: unknown) => value !== undefined && value !== null && value !== '';
const open = { type: 'object', additionalProperties: true };

/** A mailing's files, through entity-file's Attachment.get when it is enabled (none otherwise). */
async function attachmentsOf(ctx: ActionContext, mailingId: number): Promise<MailAttachment[]> {
  const api = ctx.scope.cradle.api;
  if (!api.actions({ version: 3, entity: 'Attachment' }).some((listed) => listed.action === 'get')) return [];
  const found = (await ctx.call(
    'Attachment',
    'get',
    { entity_table: 'civicrm_mailing', entity_id: mailingId, return: ['content'] },
    { version: 3, trusted: true },
  )) as { values: Record<string, Params> };
  return Object.values(found.values).map((file) => ({
    filename: String(file.name),
    content: Buffer.from(String(file.content ?? ''), 'utf8'),
    contentType: typeof file.mime_type === 'string' ? file.mime_type : undefined,
  }));
}

export function defineMailingActions(
  actions: ActionRegistrar,
  service: () => EntityService,
  mailer: () => Mailer,
  log: Logger,
): void {
  const trusted = (ctx: ActionContext) =>
    service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: true });

  actions.define({
    version: 3,
    entity: 'Mailing',
    action: 'submit',
    description: 'Schedules (and with approval_date approves) a mailing: needs id and scheduled_date (4.6.0)',
    params: open,
    permission: MAILING_PERMISSIONS.submit!,
    writes: true,
    async handler(params: Params, ctx: ActionContext) {
      if (!has(params.id)) throw mandatoryMissing(['id']);
      if (!has(params.scheduled_date) && !has(params.approval_date))
        throw invalid('Missing parameter scheduled_date and/or approval_date');
      if (!ctx.principal.contactId) throw invalid('Failed to determine current user');
      const update: Params = { id: params.id };
      if (has(params.scheduled_date)) {
        update.scheduled_date = params.scheduled_date;
        update.scheduled_id = ctx.principal.contactId;
      }
      if (has(params.approval_date)) {
        update.approval_date = params.approval_date;
        update.approver_id = ctx.principal.contactId;
        update.approval_status_id = params.approval_status_id ?? 1;
      }
      if (has(params.approval_note)) update.approval_note = params.approval_note;
      return ctx.call('Mailing', 'create', update);
    },
  });

  actions.define({
    version: 3,
    entity: 'Job',
    action: 'process_mailing',
    description: 'Sends the scheduled mailings that are due (recipients queued, messages sent, jobs completed)',
    params: open,
    permission: 'administer CRM',
    writes: true,
    async handler(_params: Params, ctx: ActionContext) {
      const result = await processMailings({
        db: ctx.db,
        entities: trusted(ctx),
        mailer: mailer(),
        log,
        attachments: (mailingId) => attachmentsOf(ctx, mailingId),
      });
      return { is_error: 0, version: 3, count: 1, values: [{ ...result }] };
    },
  });

  async function contactMailings(params: Params, ctx: ActionContext) {
    if (!has(params.contact_id)) throw mandatoryMissing(['contact_id']);
    const contactId = Number(params.contact_id);
    if (!Number.isInteger(contactId)) throw invalid('contact_id is not a valid integer');
    const type = String(params.type ?? 'Delivered');
    if (!['Delivered', 'Bounced'].includes(type)) throw invalid(`'${type}' is not a valid option for field type`);
    // The contact as the caller may see it: no access, no answer.
    const asCaller = service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: ctx.trusted });
    if (!(await asCaller.count('Contact', { id: contactId }))) throw invalid(`Contact ${contactId} not found`);
    // Bounces are not recorded yet: every queued, non-test message counts as delivered.
    if (type === 'Bounced') return [];
    const queued = await trusted(ctx).get('MailingEventQueue', {
      where: [
        { path: 'contact_id', op: '=', value: contactId },
        { path: 'is_test', op: '=', value: false },
        { path: 'job_id', op: 'IS NOT NULL' },
      ],
      select: [
        'mailing_id',
        'mailing_id.subject',
        'mailing_id.created_id',
        'mailing_id.created_id.sort_name',
        'job_id.start_date',
      ],
      orderBy: [{ path: 'job_id.start_date', dir: 'DESC' }],
    });
    const byMailing = new Map<number, Params>();
    for (const row of queued)
      if (!byMailing.has(Number(row.mailing_id)))
        byMailing.set(Number(row.mailing_id), {
          mailing_id: String(row.mailing_id),
          subject: row['mailing_id.subject'],
          creator_id: row['mailing_id.created_id'] === null ? null : String(row['mailing_id.created_id']),
          creator_name: row['mailing_id.created_id.sort_name'],
          start_date: row['job_id.start_date'],
        });
    return [...byMailing.values()];
  }

  const contactPermission = { allOf: ['access CRM', 'view all contacts'] };
  actions.define({
    version: 3,
    entity: 'MailingContact',
    action: 'get',
    description: "A contact's mailings (contact_id required; type Delivered, the default, or Bounced) (4.4.0)",
    params: open,
    permission: contactPermission,
    async handler(params: Params, ctx: ActionContext) {
      const rows = await contactMailings(params, ctx);
      const values = Object.fromEntries(rows.map((row) => [String(row.mailing_id), row]));
      return { is_error: 0, version: 3, count: rows.length, values };
    },
  });
  actions.define({
    version: 3,
    entity: 'MailingContact',
    action: 'getcount',
    description: 'How many mailings a contact was sent (contact_id required; type Delivered or Bounced) (4.4.0)',
    params: open,
    permission: contactPermission,
    async handler(params: Params, ctx: ActionContext) {
      return (await contactMailings(params, ctx)).length;
    },
  });
}
