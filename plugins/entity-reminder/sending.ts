/**
 * Sending scheduled reminders (Job.send_reminder) for activity-based schedules: each active Email schedule whose
 * mapping is Activity finds the activities of its types and statuses whose reminder time (activity date ±
 * offset) has come, and emails each recipient (targets, assignees or source, per `recipient`) once: an
 * ActionLog line, inserted on conflict do nothing under a unique key, claims the (schedule, activity, contact)
 * before the message goes, so concurrent runs never send it twice. A refused message is logged on its line.
 */
import type { Knex } from 'knex';
import type { Logger } from '../../kernel';
import type { Condition, Entities } from '../entity-core';
import type { Mailer } from '../mailer';
import { render } from './tokens';

type Row = Record<string, unknown>;

export interface ReminderDeps {
  db: Knex;
  entities: Entities;
  mailer: Mailer;
  log: Logger;
}

export interface ReminderResult {
  schedules: number;
  sent: number;
  failed: number;
  skipped: number;
}

/** The reference's mapping for activities (mapping_id 1), by id or name. */
const ACTIVITY_MAPPINGS = ['1', 'activity_type', 'activity', 'Activity'];
/** `recipient` for activities: the activity contacts' record types (1 assignees, 2 source, 3 targets). */
const RECIPIENTS: Record<string, number> = { '1': 1, '2': 2, '3': 3 };
const UNIT_MS: Record<string, number> = { hour: 3600e3, day: 86400e3, week: 7 * 86400e3 };

const list = (value: unknown) => (Array.isArray(value) ? value.map(Number).filter(Number.isFinite) : []);

/** now - offset (after) or now + offset (before): activities dated up to this are due. */
export function dueBefore(schedule: Row, now: Date): Date {
  const amount = Number(schedule.start_action_offset ?? 0) * (schedule.start_action_condition === 'after' ? -1 : 1);
  const unit = String(schedule.start_action_unit ?? 'day');
  const due = new Date(now);
  if (unit === 'month') due.setMonth(due.getMonth() + amount);
  else if (unit === 'year') due.setFullYear(due.getFullYear() + amount);
  else due.setTime(due.getTime() + amount * (UNIT_MS[unit] ?? UNIT_MS.day));
  return due;
}

async function dueActivities(entities: Entities, schedule: Row, now: Date): Promise<Row[]> {
  const where: Condition[] = [
    { path: 'is_deleted', op: '=', value: false },
    { path: 'is_test', op: '=', value: false },
  ];
  const types = list(schedule.entity_value);
  const statuses = list(schedule.entity_status);
  if (types.length) where.push({ path: 'activity_type_id', op: 'IN', value: types });
  if (statuses.length) where.push({ path: 'status_id', op: 'IN', value: statuses });
  if (schedule.absolute_date) {
    if (new Date(String(schedule.absolute_date)) > now) return [];
  } else where.push({ path: 'activity_date_time', op: '<=', value: dueBefore(schedule, now) });
  if (schedule.effective_start_date)
    where.push({ path: 'activity_date_time', op: '>=', value: schedule.effective_start_date });
  if (schedule.effective_end_date)
    where.push({ path: 'activity_date_time', op: '<=', value: schedule.effective_end_date });
  return entities.get('Activity', { where, select: ['id', 'subject', 'activity_date_time', 'location', 'details'] });
}

async function recipientsOf(entities: Entities, schedule: Row, activityId: number): Promise<number[]> {
  if (schedule.recipient === 'manual') return list(schedule.recipient_manual);
  const recordType = RECIPIENTS[String(schedule.recipient ?? '')] ?? 3;
  const rows = await entities.get('ActivityContact', {
    where: { activity_id: activityId, record_type_id: recordType },
    select: ['contact_id'],
  });
  return rows.map((row) => Number(row.contact_id));
}

/** The contact and the address to write to, or undefined when the contact must not be emailed. */
async function addressee(entities: Entities, contactId: number): Promise<{ contact: Row; email: string } | undefined> {
  const [contact] = await entities.get('Contact', {
    where: { id: contactId, is_deleted: false, is_deceased: false, do_not_email: false },
    select: ['id', 'display_name', 'first_name', 'last_name', 'sort_name'],
  });
  if (!contact) return undefined;
  const [email] = await entities.get('Email', {
    where: { contact_id: contactId, on_hold: 0 },
    select: ['email'],
    orderBy: [
      { path: 'is_primary', dir: 'DESC' },
      { path: 'id', dir: 'ASC' },
    ],
    limit: 1,
  });
  return email ? { contact: { ...contact, email: email.email }, email: String(email.email) } : undefined;
}

/** Claims (schedule, activity, contact): true for the one run whose ActionLog line was inserted. */
async function claim(db: Knex, scheduleId: number, activity: Row, contactId: number): Promise<number | undefined> {
  const inserted = await db('crm_action_log')
    .insert({
      action_schedule_id: scheduleId,
      entity_table: 'civicrm_activity',
      entity_id: activity.id,
      contact_id: contactId,
      action_date_time: new Date(),
      reference_date: activity.activity_date_time,
      repetition_number: 1,
    })
    .onConflict(['action_schedule_id', 'entity_table', 'entity_id', 'contact_id'])
    .ignore()
    .returning('id');
  return inserted.length ? Number((inserted[0] as { id: number }).id) : undefined;
}

async function sendOne(deps: ReminderDeps, schedule: Row, activity: Row, contactId: number, result: ReminderResult) {
  const to = await addressee(deps.entities, contactId);
  if (!to) return void result.skipped++;
  const logId = await claim(deps.db, Number(schedule.id), activity, contactId);
  if (logId === undefined) return;
  const data = { contact: to.contact, activity, schedule };
  const fromEmail =
    typeof schedule.from_email === 'string' && schedule.from_email ? schedule.from_email : deps.mailer.from.email;
  const fromName =
    typeof schedule.from_name === 'string' && schedule.from_name ? schedule.from_name : deps.mailer.from.name;
  try {
    await deps.mailer.send({
      from: fromName ? `"${fromName.replace(/"/g, '')}" <${fromEmail}>` : fromEmail,
      to: to.email,
      subject: render(String(schedule.subject ?? schedule.title ?? ''), data),
      text: schedule.body_text ? render(String(schedule.body_text), data) : undefined,
      html: schedule.body_html ? render(String(schedule.body_html), data, true) : undefined,
      headers: { 'X-CRM-Reminder': `${String(schedule.id)}.${String(activity.id)}` },
    });
    result.sent++;
  } catch (err) {
    result.failed++;
    await deps
      .db('crm_action_log')
      .where({ id: logId })
      .update({ is_error: true, message: (err as Error).message.slice(0, 1000) });
    deps.log.warn(
      { scheduleId: schedule.id, contactId, err: (err as Error).message },
      'reminder: a message was not sent',
    );
  }
}

/** Sends every activity reminder that is due; what Job.send_reminder runs. */
export async function sendReminders(deps: ReminderDeps, now = new Date()): Promise<ReminderResult> {
  const result: ReminderResult = { schedules: 0, sent: 0, failed: 0, skipped: 0 };
  const schedules = await deps.entities.get('ActionSchedule', {
    where: [
      { path: 'is_active', op: '=', value: true },
      { path: 'mapping_id', op: 'IN', value: ACTIVITY_MAPPINGS },
      { path: 'mode', op: 'IN', value: ['Email', 'User Preference'] },
    ],
    orderBy: [{ path: 'id', dir: 'ASC' }],
  });
  for (const schedule of schedules) {
    result.schedules++;
    for (const activity of await dueActivities(deps.entities, schedule, now))
      for (const contactId of await recipientsOf(deps.entities, schedule, Number(activity.id)))
        await sendOne(deps, schedule, activity, contactId, result);
  }
  return result;
}
