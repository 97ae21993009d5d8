/** Attachments (4.6.0) over HTTP: upload, get, download, the attached record's permissions; File and EntityFile. */
import { expect } from 'chai';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';

describe('entity-file: Attachment, File and EntityFile', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let outsider: Headers;
  let directory: string;
  let activityId: number;
  let mailingId: number;

  before(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'crm-files-'));
    crm = await bootEntityHttp({
      plugins: ['entity-file', 'entity-activity', 'entity-mailing'],
      pluginConfig: { 'entity-file': { directory, maxBytes: 64 } },
    });
    admin = (await crm.userWith('root', ['*'])).headers;
    outsider = (await crm.userWith('outsider', ['access CRM', 'view all activities'])).headers;
    const ann = await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Ann' });
    const activity = await crm.api3(admin, 'Activity', 'create', {
      activity_type_id: 'Meeting',
      subject: 'Plans',
      source_contact_id: ann.id,
      target_contact_id: [ann.id],
    });
    expect(activity, JSON.stringify(activity)).to.include({ is_error: 0 });
    activityId = Number(activity.id);
    mailingId = Number((await crm.api3(admin, 'Mailing', 'create', { name: 'With file', subject: 'f' })).id);
  });
  after(() => crm?.t.close());

  const upload = (who: Headers, values: Row) =>
    crm.api3(who, 'Attachment', 'create', {
      entity_table: 'civicrm_activity',
      entity_id: activityId,
      mime_type: 'text/plain',
      ...values,
    });

  it('Attachment.create (4.6.0) stores the content under a sanitised name; get gives a url, content only when asked', async () => {
    const made = await upload(admin, { name: 'my report (v1).txt', content: 'Hello file', description: 'Minutes' });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const attachment = made.values[String(made.id)] as Row;
    expect(attachment).to.include({
      name: 'my_report_v1_.txt',
      mime_type: 'text/plain',
      entity_table: 'civicrm_activity',
      description: 'Minutes',
    });
    expect(attachment).to.not.have.property('content');
    expect(attachment.url).to.equal(`/crm/file?id=${String(made.id)}&eid=${activityId}`);
    const files = await readdir(directory);
    expect(files).to.have.length(1);
    expect(files[0]).to.match(/^my_report_v1__[0-9a-f]{32}\.txt$/);

    const plain = await crm.api3(admin, 'Attachment', 'get', {
      entity_table: 'civicrm_activity',
      entity_id: activityId,
    });
    expect(plain.count).to.equal(1);
    expect(Object.values(plain.values)[0]).to.not.have.property('content');
    const full = await crm.api3(admin, 'Attachment', 'get', { id: made.id, return: ['content'] });
    expect(Object.values(full.values)[0]).to.include({ content: 'Hello file' });

    const http = await crm.t.http();
    const download = await http.get(String(attachment.url)).set(admin);
    expect(download.status).to.equal(200);
    expect(download.text).to.equal('Hello file');
    expect(download.headers['content-type']).to.match(/^text\/plain/);
    expect(download.headers['content-disposition']).to.equal('attachment; filename="my_report_v1_.txt"');
    expect(download.headers['x-content-type-options']).to.equal('nosniff');
  });

  it('refuses names with a path, move-file from remote callers, and content past the size limit (nothing kept)', async () => {
    const before = await readdir(directory);
    expect((await upload(admin, { name: '../etc/passwd', content: 'x' })).error_message).to.match(/Malformed name/);
    const moved = await upload(admin, { name: 'a.txt', options: { 'move-file': '/etc/passwd' } });
    expect(moved.error_message).to.match(/move-file is not supported/);
    const big = await upload(admin, { name: 'big.txt', content: 'x'.repeat(65) });
    expect(big.is_error).to.equal(1);
    expect(big.error_message).to.match(/larger than 64 bytes/);
    expect((await upload(admin, { name: 'nothing.txt' })).is_error).to.equal(1);
    expect((await upload(admin, { name: 'typo.txt', content: 'x', descripton: 'typo' })).error_message).to.match(
      /Unknown Attachment field/,
    );
    expect((await crm.api3(admin, 'Attachment', 'get', { entity_id: 'abc' })).error_message).to.match(
      /Malformed entity_id/,
    );
    expect(await readdir(directory)).to.deep.equal(before);
  });

  it('permissions come from the attached record: no access to the activity, no attachment, no download, no upload', async () => {
    const [attachment] = Object.values(
      (await crm.api3(admin, 'Attachment', 'get', { entity_id: activityId })).values,
    ) as Row[];
    const seen = await crm.api3(outsider, 'Attachment', 'get', {
      entity_table: 'civicrm_activity',
      entity_id: activityId,
    });
    expect(seen, JSON.stringify(seen)).to.include({ is_error: 0, count: 0 });
    const http = await crm.t.http();
    expect((await http.get(String(attachment.url)).set(outsider)).status).to.equal(404);
    expect((await http.get(String(attachment.url))).status).to.be.oneOf([401, 403, 404]);
    const refused = await upload(outsider, { name: 'sneaky.txt', content: 'x' });
    expect(refused.is_error).to.equal(1);
    expect((await crm.api4(outsider, 'File', 'get', {})).values).to.have.length(0);
    const onMailing = await crm.api3(admin, 'Attachment', 'create', {
      entity_table: 'civicrm_mailing',
      entity_id: mailingId,
      name: 'flyer.txt',
      mime_type: 'text/plain',
      content: 'Flyer',
    });
    expect(onMailing, JSON.stringify(onMailing)).to.include({ is_error: 0 });
    // Seeing every contact is not enough for a mailing's files: the mailing's own permission is needed.
    const reader = (await crm.userWith('reader', ['access CRM', 'view all contacts'])).headers;
    expect((await crm.api3(reader, 'Attachment', 'get', { entity_table: 'civicrm_mailing' })).count).to.equal(0);
    // Editing every activity is not enough to link the mailing's file to one (and so read it).
    const linker = (
      await crm.userWith('linker', ['access CRM', 'view all contacts', 'edit all contacts', 'view all activities'])
    ).headers;
    const relinked = await crm.api4(linker, 'EntityFile', 'create', {
      values: { entity_table: 'civicrm_activity', entity_id: activityId, file_id: onMailing.id },
    });
    expect(relinked, JSON.stringify(relinked)).to.have.property('error_message');
    expect((await crm.api3(linker, 'Attachment', 'get', { entity_id: activityId })).count).to.equal(1);
    const mailer = (await crm.userWith('mailer', ['access CRM', 'access CiviMail'])).headers;
    expect((await crm.api3(mailer, 'Attachment', 'get', { entity_table: 'civicrm_mailing' })).count).to.equal(1);
  });

  it('File and EntityFile: get with a filter and a join, update, getfields; deleting the record deletes its files', async () => {
    const links = await crm.api4(admin, 'EntityFile', 'get', {
      where: [['entity_table', '=', 'civicrm_activity']],
      select: ['id', 'file_id', 'file_id.mime_type'],
    });
    expect(links.values).to.have.length(1);
    expect(links.values[0]['file_id.mime_type']).to.equal('text/plain');
    const fileId = links.values[0].file_id;
    const updated = await crm.api4(admin, 'File', 'update', {
      where: [['id', '=', fileId]],
      values: { description: 'Final minutes' },
    });
    expect(updated, JSON.stringify(updated)).to.not.have.property('error_message');
    const v3 = await crm.api3(admin, 'File', 'get', { id: fileId, return: ['description', 'created_id.display_name'] });
    expect(v3.values[String(fileId)]).to.include({ description: 'Final minutes' });
    expect((await crm.api3(admin, 'EntityFile', 'getfields', {})).values).to.have.property('file_id');
    expect((await crm.api3(admin, 'Attachment', 'getfields', {})).values).to.include.keys('name', 'url', 'content');
    expect((await crm.api4(admin, 'File', 'getFields', {})).values.map((row) => row.name)).to.include('uri');
    const byRecord = await crm.api3(admin, 'Attachment', 'get', {
      entity_table: 'civicrm_mailing',
      entity_id: mailingId,
    });
    expect(byRecord.count).to.equal(1);
    const before = (await readdir(directory)).length;
    expect(await crm.api3(admin, 'Activity', 'delete', { id: activityId })).to.include({ is_error: 0 });
    expect((await crm.api4(admin, 'File', 'get', { where: [['id', '=', fileId]] })).values).to.have.length(0);
    expect(await readdir(directory)).to.have.length(before - 1);
    const removed = await crm.api3(admin, 'Attachment', 'delete', {
      entity_table: 'civicrm_mailing',
      entity_id: mailingId,
    });
    expect(removed, JSON.stringify(removed)).to.include({ is_error: 0, count: 1 });
    expect(await readdir(directory)).to.have.length(before - 2);
  });
});
