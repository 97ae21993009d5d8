/**
 * Mailing's rules: the 4.6.0 defaults on create (those of the reference's mailing screen), who may schedule
 * and approve, the `groups` / `mailings` include/exclude lists (APIv3 create), and — only once
 * `scheduled_date` is set — the parent job and the recipient list. MailingComponent's APIv3 get shows active
 * components unless `is_active` is given (NULL for all).
 */
import { randomBytes } from 'node:crypto';
import { holds, KernelError } from '../../kernel';
import { invalid } from '../api3';
import { singleDefault, type Entities, type EntityRegistry, type SaveContext } from '../entity-core';
import type { Mailer } from '../mailer';
import { writeRecipients } from './recipients';

type Row = Record<string, unknown>;
const has = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== 'null';
const SCHEDULING = ['scheduled_date', 'scheduled_id'];
const APPROVAL = ['approval_date', 'approver_id', 'approval_status_id', 'approval_note'];
/** Component fields and the component type each defaults to. */
const COMPONENT_FIELDS: Record<string, string> = {
  header_id: 'Header',
  footer_id: 'Footer',
  reply_id: 'Reply',
  unsubscribe_id: 'Unsubscribe',
  resubscribe_id: 'Resubscribe',
  optout_id: 'OptOut',
};

async function defaultComponents(entities: Entities): Promise<Row> {
  const rows = await entities.get('MailingComponent', {
    where: { is_default: true, is_active: true },
    select: ['id', 'component_type'],
    orderBy: [{ path: 'id', dir: 'ASC' }],
  });
  const out: Row = {};
  for (const [field, type] of Object.entries(COMPONENT_FIELDS)) {
    const row = rows.find((r) => r.component_type === type);
    if (row) out[field] = Number(row.id);
  }
  return out;
}

/** The defaults a new mailing gets (4.6.0: as the mailing screen sets them). */
async function defaults(sc: SaveContext, mailer: Mailer): Promise<Row> {
  return {
    override_verp: true,
    forward_replies: false,
    open_tracking: true,
    url_tracking: true,
    auto_responder: false,
    visibility: 'Public Pages',
    from_email: mailer.from.email,
    from_name: mailer.from.name,
    replyto_email: mailer.from.email,
    created_id: sc.principal.contactId ?? undefined,
    created_date: new Date(),
    ...(await defaultComponents(sc.entities)),
  };
}

/** 4.6.0: scheduling needs `schedule mailings`, approving `approve mailings` (or the all-in-one `access CiviMail`). */
function checkWorkflow(values: Row, sc: SaveContext): void {
  const granted = sc.principal.permissions;
  const refuse = (fields: string[], permission: string) => {
    const named = fields.filter((field) => values[field] !== undefined && sc.params[field] !== undefined);
    if (named.length && !holds({ anyOf: ['access CiviMail', permission] }, granted))
      throw new KernelError('E_FORBIDDEN', `Setting ${named.join(', ')} needs the permission '${permission}'`);
  };
  refuse(SCHEDULING, 'schedule mailings');
  refuse(APPROVAL, 'approve mailings');
}

/** `groups: {include: [...], exclude: [...]}` and `mailings: {...}` replace the mailing's MailingGroup rows. */
async function replaceGroups(entities: Entities, mailingId: number, params: Row): Promise<void> {
  for (const [key, table] of [
    ['groups', 'civicrm_group'],
    ['mailings', 'civicrm_mailing'],
  ]) {
    const lists = params[key];
    if (lists === undefined) continue;
    if (!lists || typeof lists !== 'object' || Array.isArray(lists))
      throw invalid(`${key} must be an object of include / exclude / base lists`);
    for (const [type, ids] of Object.entries(lists as Row)) {
      const groupType = { include: 'Include', exclude: 'Exclude', base: 'Base' }[type];
      if (!groupType || !Array.isArray(ids)) throw invalid(`${key}.${type} is not a list of include, exclude or base`);
      const old = await entities.get('MailingGroup', {
        where: { mailing_id: mailingId, group_type: groupType, entity_table: table },
        select: ['id'],
      });
      for (const row of old) await entities.delete('MailingGroup', Number(row.id));
      for (const id of ids) {
        if (!Number.isInteger(Number(id))) throw invalid(`${key}.${type} holds an invalid id: ${String(id)}`);
        await entities.save('MailingGroup', {
          mailing_id: mailingId,
          group_type: groupType,
          entity_table: table,
          entity_id: Number(id),
        });
      }
    }
  }
}

/** A scheduled mailing gets its parent job (once) and its recipient list (rebuilt on each save). */
async function schedule(row: Row, entities: Entities): Promise<void> {
  const mailingId = Number(row.id);
  const [job] = await entities.get('MailingJob', {
    where: [
      { path: 'mailing_id', op: '=', value: mailingId },
      { path: 'is_test', op: '=', value: false },
      { path: 'parent_id', op: 'IS NULL' },
    ],
    select: ['id', 'status'],
  });
  const status = job ? job.status : row.is_completed ? 'Complete' : 'Scheduled';
  await entities.save('MailingJob', {
    ...(job ? { id: job.id } : { mailing_id: mailingId, is_test: false, job_type: null }),
    status,
    scheduled_date: row.scheduled_date,
  });
  if (status === 'Scheduled') await writeRecipients(entities, mailingId);
}

export function extendMailings(entities: EntityRegistry, mailer: () => Mailer): void {
  entities.extend('Mailing', {
    params: ['groups', 'mailings'],
    async beforeSave(values, sc) {
      checkWorkflow(values, sc);
      const out: Row = { ...values, modified_date: new Date() };
      if (sc.existing) return out;
      for (const [field, value] of Object.entries(await defaults(sc, mailer())))
        if (out[field] === undefined && value !== undefined) out[field] = value;
      out.hash = randomBytes(8).toString('hex');
      return out;
    },
    async afterSave(row, sc) {
      await replaceGroups(sc.entities, Number(row.id), sc.params);
      if (has(row.scheduled_date)) await schedule(row, sc.entities);
    },
  });
  // One default per component type: a new default takes the place of the old one.
  entities.extend('MailingComponent', singleDefault('MailingComponent', 'component_type'));
  entities.extend('MailingComponent', {
    beforeGet(params, { api }) {
      if (api !== 3) return undefined;
      // 4.6.0: active components only, unless is_active is given; NULL asks for all.
      if (params.is_active === undefined) return { params: { ...params, is_active: 1 } };
      if (params.is_active === null || params.is_active === 'null') {
        const rest = { ...params };
        delete rest.is_active;
        return { params: rest };
      }
      return undefined;
    },
  });
}
