/**
 * The mailing flow end to end: a mailing to a static and a smart group (less an excluded group) is scheduled,
 * Job.process_mailing sends it through a real SMTP server (smtp-server, in this process), and the messages,
 * the queue, the job and MailingContact show it.
 */
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';

interface Received {
  from: string;
  to: string[];
  raw: string;
}
const SMTP_PASSWORD = 'smtp-secret-never-logged';

function startSmtp(received: Received[]): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, done) {
      if (auth.username === 'crm' && auth.password === SMTP_PASSWORD) return done(null, { user: 'crm' });
      return done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
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

describe('entity-mailing: sending a scheduled mailing through SMTP (Job.process_mailing)', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let smtp: SMTPServer;
  const received: Received[] = [];
  const people: Record<string, number> = {};

  before(async () => {
    const started = await startSmtp(received);
    smtp = started.server;
    crm = await bootEntityHttp({
      plugins: ['entity-mailing', 'entity-file'],
      pluginConfig: {
        mailer: { driver: 'smtp', host: '127.0.0.1', port: started.port, user: 'crm', password: SMTP_PASSWORD },
        'entity-file': { directory: await mkdtemp(path.join(os.tmpdir(), 'crm-mailing-files-')) },
      },
    });
    admin = (await crm.userWith('root', ['*'])).headers;
  });
  after(async () => {
    await crm?.t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const person = async (first: string, last: string, email: string | null, extra: Row = {}) => {
    const made = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: first,
      last_name: last,
      ...extra,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    if (email)
      await crm.api3(admin, 'Email', 'create', {
        contact_id: made.id,
        email,
        is_primary: 1,
        on_hold: extra.held ? 1 : 0,
      });
    people[first] = Number(made.id);
    return Number(made.id);
  };

  it('sends to the included static and smart groups, less the excluded, held, do-not-email and email-less', async () => {
    const list = (await crm.api4(admin, 'Group', 'create', { values: { title: 'Newsletter' } })).values[0].id;
    const banned = (await crm.api4(admin, 'Group', 'create', { values: { title: 'Banned' } })).values[0].id;
    const search = await crm.api4(admin, 'SavedSearch', 'create', {
      values: {
        name: 'smart_people',
        label: 'Smart',
        api_entity: 'Contact',
        api_params: { where: [['last_name', '=', 'Smart']] },
      },
    });
    const smart = (
      await crm.api3(admin, 'Group', 'create', { title: 'Smart ones', saved_search_id: search.values[0].id })
    ).id;
    for (const [first, email, extra] of [
      ['Ann', 'ann@example.org', {}],
      ['Bob', 'bob@example.org', { do_not_email: 1 }],
      ['Cat', null, {}],
      ['Dan', 'dan@example.org', { held: 1 }],
      ['Fay', 'fay@example.org', {}],
      ['Gus', 'gus@example.org', { is_opt_out: 1 }],
    ] as Array<[string, string | null, Row]>) {
      const { held, ...contactExtra } = extra;
      const id = await person(first, 'Static', email, { ...contactExtra, held });
      await crm.api3(admin, 'GroupContact', 'create', { group_id: list, contact_id: id });
    }
    await crm.api3(admin, 'GroupContact', 'create', { group_id: banned, contact_id: people.Fay });
    await person('Eve', 'Smart', 'eve@example.org');

    const mailing = await crm.api3(admin, 'Mailing', 'create', {
      name: 'Autumn',
      subject: 'News for {contact.first_name}',
      body_html: '<p>Hello {contact.first_name}</p>',
      body_text: 'Hello {contact.first_name}',
      groups: { include: [list, smart], exclude: [banned] },
    });
    expect(mailing, JSON.stringify(mailing)).to.include({ is_error: 0 });
    expect((await crm.api3(admin, 'MailingRecipients', 'get', { mailing_id: mailing.id })).count).to.equal(0);
    const attached = await crm.api3(admin, 'Attachment', 'create', {
      entity_table: 'civicrm_mailing',
      entity_id: mailing.id,
      name: 'programme.txt',
      mime_type: 'text/plain',
      content: 'Autumn programme',
    });
    expect(attached, JSON.stringify(attached)).to.include({ is_error: 0 });
    const submitted = await crm.api3(admin, 'Mailing', 'submit', {
      id: mailing.id,
      scheduled_date: '2020-06-01 09:00:00',
    });
    expect(submitted, JSON.stringify(submitted)).to.include({ is_error: 0 });
    const recipients = await crm.api4(admin, 'MailingRecipients', 'get', {
      where: [['mailing_id', '=', mailing.id]],
      select: ['contact_id.first_name'],
    });
    expect(recipients.values.map((row) => row['contact_id.first_name'])).to.have.members(['Ann', 'Eve']);

    const run = await crm.api3(admin, 'Job', 'process_mailing', {});
    expect(run, JSON.stringify(run)).to.include({ is_error: 0 });
    expect(run.values[0]).to.include({ jobs: 1, sent: 2, failed: 0 });

    expect(received.map((mail) => mail.to[0]).sort()).to.deep.equal(['ann@example.org', 'eve@example.org']);
    const toAnn = received.find((mail) => mail.to[0] === 'ann@example.org')!;
    expect(toAnn.from.toLowerCase()).to.equal('info@example.org');
    expect(toAnn.raw).to.match(/^Subject: News for Ann\r?$/m);
    expect(toAnn.raw).to.contain('Hello Ann');
    expect(toAnn.raw).to.contain('Header of the mailing');
    expect(toAnn.raw).to.match(/Content-Disposition: attachment; filename=programme\.txt/);
    expect(toAnn.raw).to.contain(Buffer.from('Autumn programme').toString('base64'));

    const job = await crm.api4(admin, 'MailingJob', 'get', {
      where: [['mailing_id', '=', mailing.id]],
      select: ['status', 'mailing_id.is_completed'],
    });
    expect(job.values[0]).to.include({ status: 'Complete', 'mailing_id.is_completed': true });
    const queue = await crm.api4(admin, 'MailingEventQueue', 'get', {
      where: [['mailing_id', '=', mailing.id]],
      select: ['contact_id', 'hash'],
    });
    expect(queue.values.map((row) => row.contact_id)).to.have.members([people.Ann, people.Eve]);

    // A second run has nothing left to send.
    expect((await crm.api3(admin, 'Job', 'process_mailing', {})).values[0]).to.include({ jobs: 0, sent: 0 });
    expect(received).to.have.length(2);

    const theirs = await crm.api3(admin, 'MailingContact', 'get', { contact_id: people.Ann });
    expect(theirs, JSON.stringify(theirs)).to.include({ is_error: 0, count: 1 });
    expect(theirs.values[String(mailing.id)]).to.include({ subject: 'News for {contact.first_name}' });
    expect(await crm.api3(admin, 'MailingContact', 'getcount', { contact_id: people.Bob })).to.include({ result: 0 });
    expect((await crm.api3(admin, 'MailingContact', 'get', {})).is_error).to.equal(1);
    expect(crm.t.logs.join('\n')).to.not.contain(SMTP_PASSWORD);
  });

  it('two runs at once send a due mailing once (the job is taken by one of them)', async () => {
    const list = (await crm.api4(admin, 'Group', 'create', { values: { title: 'Pair' } })).values[0].id;
    await crm.api3(admin, 'GroupContact', 'create', { group_id: list, contact_id: [people.Ann, people.Eve] });
    const mailing = await crm.api3(admin, 'Mailing', 'create', {
      name: 'Twice?',
      subject: 'Once only',
      body_text: 'Hi',
      groups: { include: [list] },
      scheduled_date: '2020-07-01 09:00:00',
    });
    expect(mailing, JSON.stringify(mailing)).to.include({ is_error: 0 });
    const before = received.length;
    const runs = await Promise.all([
      crm.api3(admin, 'Job', 'process_mailing', {}),
      crm.api3(admin, 'Job', 'process_mailing', {}),
    ]);
    const sent = runs.map((run) => (run.values as unknown as Row[])[0].sent as number);
    expect(sent.reduce((a, b) => a + b, 0)).to.equal(2);
    expect(received.length - before).to.equal(2);
  });

  it('Job.process_mailing needs administer CRM; MailingContact.get needs a contact the caller may see', async () => {
    const staff = (await crm.userWith('staff', ['access CRM', 'access CiviMail', 'view all contacts'])).headers;
    const refused = await crm.api3(staff, 'Job', 'process_mailing', {});
    expect(refused.is_error).to.equal(1);
    // Ann was sent both mailings.
    expect((await crm.api3(staff, 'MailingContact', 'get', { contact_id: people.Ann })).count).to.equal(2);
    const missing = await crm.api3(staff, 'MailingContact', 'get', { contact_id: 999999 });
    expect(missing.is_error).to.equal(1);
    expect(
      (await crm.api3(staff, 'MailingContact', 'get', { contact_id: people.Ann, type: 'Opened' })).is_error,
    ).to.equal(1);
  });
});
