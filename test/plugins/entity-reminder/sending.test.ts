/**
 * Job.send_reminder end to end: an activity reminder (2 days before, Meetings that are Scheduled, to the
 * targets) sent through a real SMTP server (smtp-server, in this process) with tokens filled in; the job run
 * twice (and two calls at once) sends each reminder once, ActionLog shows it.
 */
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

interface Received {
  to: string[];
  raw: string;
}

function startSmtp(received: Received[]): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.server.address() as { port: number }).port })),
  );
}

const inDays = (days: number) => new Date(Date.now() + days * 86400e3).toISOString().slice(0, 19).replace('T', ' ');

describe('entity-reminder: Job.send_reminder sends activity reminders once', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let smtp: SMTPServer;
  const received: Received[] = [];
  const ids: Record<string, number> = {};

  before(async () => {
    const started = await startSmtp(received);
    smtp = started.server;
    crm = await bootEntityHttp({
      plugins: ['entity-reminder', 'entity-activity', 'jobs'],
      pluginConfig: {
        mailer: {
          driver: 'smtp',
          host: '127.0.0.1',
          port: started.port,
          fromEmail: 'crm@example.org',
          fromName: 'CRM',
        },
        jobs: { autoStart: false, queue: 'local' },
      },
    });
    admin = (await crm.userWith('root', ['*'])).headers;
    for (const [name, email] of [
      ['Ann', 'ann@example.org'],
      ['Bea', 'bea@example.org'],
      ['Cy', 'cy@example.org'],
    ]) {
      const made = await crm.api3(admin, 'Contact', 'create', {
        contact_type: 'Individual',
        first_name: name,
        last_name: 'Tester',
      });
      ids[name] = Number(made.id);
      await crm.api3(admin, 'Email', 'create', { contact_id: made.id, email, is_primary: 1 });
    }
  });
  after(async () => {
    await crm?.t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const activity = async (type: string, days: number, subject: string, status = 'Scheduled') => {
    const made = await crm.api3(admin, 'Activity', 'create', {
      activity_type_id: type,
      status_id: status,
      subject,
      activity_date_time: inDays(days),
      source_contact_id: ids.Cy,
      target_contact_id: [ids.Ann, ids.Bea],
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    return Number(made.id);
  };

  it('4.4.2 scheduled reminders: the job sends due activity reminders to the targets, with tokens', async () => {
    const types = (await crm.api3(admin, 'Activity', 'getoptions', { field: 'activity_type_id', context: 'validate' }))
      .values;
    const statuses = (await crm.api3(admin, 'Activity', 'getoptions', { field: 'status_id', context: 'validate' }))
      .values;
    const idOf = (options: Record<string, unknown>, name: string) =>
      Object.entries(options).find(([, label]) => label === name)![0];
    const schedule = await crm.api3(admin, 'ActionSchedule', 'create', {
      name: 'meeting_soon',
      title: 'Meeting soon',
      mapping_id: '1',
      entity_value: [idOf(types, 'Meeting')],
      entity_status: [idOf(statuses, 'Scheduled')],
      start_action_offset: 2,
      start_action_unit: 'day',
      start_action_condition: 'before',
      start_action_date: 'activity_date_time',
      recipient: '3',
      subject: 'Reminder: {activity.subject}',
      body_text: 'Dear {contact.first_name}, see you at {activity.subject}. {unknown.token}',
      from_email: 'events@example.org',
      from_name: 'Events',
    });
    expect(schedule, JSON.stringify(schedule)).to.include({ is_error: 0 });
    ids.soon = await activity('Meeting', 1, 'Board meeting');
    await activity('Meeting', 5, 'Far meeting');
    await activity('Phone Call', 1, 'A call');
    await activity('Meeting', 1, 'Done meeting', 'Completed');

    const run = await crm.api3(admin, 'Job', 'execute', { name: 'Send Scheduled Reminders' });
    expect(run, JSON.stringify(run)).to.include({ is_error: 0 });
    expect(Object.values(run.values)[0]).to.include({ result: 'Success' });
    expect(received.map((mail) => mail.to[0]).sort()).to.deep.equal(['ann@example.org', 'bea@example.org']);
    const ann = received.find((mail) => mail.to[0] === 'ann@example.org')!;
    expect(ann.raw).to.match(/Subject: Reminder: Board meeting/);
    expect(ann.raw).to.include('Dear Ann, see you at Board meeting. {unknown.token}');
    expect(ann.raw).to.match(/From: "?Events"? <events@example.org>/);
  });

  it('running the job again, or twice at once, sends nothing more; ActionLog has one line per contact', async () => {
    await crm.api3(admin, 'Job', 'execute', { name: 'Send Scheduled Reminders' });
    const [first, second] = await Promise.all([
      crm.api3(admin, 'Job', 'send_reminder', {}),
      crm.api3(admin, 'Job', 'send_reminder', {}),
    ]);
    expect(first, JSON.stringify(first)).to.include({ is_error: 0 });
    expect(second, JSON.stringify(second)).to.include({ is_error: 0 });
    expect(received).to.have.length(2);
    const log = await crm.api4(admin, 'ActionLog', 'get', {
      select: ['contact_id', 'entity_table', 'entity_id', 'is_error', 'action_schedule_id.name'],
      orderBy: { contact_id: 'ASC' },
    });
    expect(log.values.map((row) => row.contact_id)).to.deep.equal([ids.Ann, ids.Bea]);
    expect(log.values[0]).to.include({
      entity_table: 'civicrm_activity',
      entity_id: ids.soon,
      is_error: false,
      'action_schedule_id.name': 'meeting_soon',
    });
    const logs = await crm.api3(admin, 'JobLog', 'get', { description: { LIKE: '%Send Scheduled Reminders%' } });
    expect(logs.count).to.be.greaterThan(0);
  });

  it('a recipient who may not be emailed is skipped; ActionLog needs administer CRM', async () => {
    await crm.api3(admin, 'Contact', 'create', { id: ids.Cy, do_not_email: 1 });
    await crm.api3(admin, 'ActionSchedule', 'create', {
      name: 'to_source',
      title: 'To the organiser',
      mapping_id: 'activity_type',
      start_action_offset: 2,
      start_action_unit: 'day',
      start_action_condition: 'before',
      recipient: '2',
      subject: 'You organise {activity.subject}',
    });
    const run = await crm.api3(admin, 'Job', 'send_reminder', {});
    expect(run.values[0]).to.include({ sent: 0, skipped: 3 });
    expect(received).to.have.length(2);
    const clerk = (await crm.userWith('clerk', ['access CRM'])).headers;
    expect(await crm.api3(clerk, 'ActionLog', 'get', {})).to.include({ is_error: 1 });
    expect(await crm.api3(clerk, 'Job', 'send_reminder', {})).to.include({ is_error: 1 });
  });
});
