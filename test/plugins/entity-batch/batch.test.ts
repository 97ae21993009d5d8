/** Batch and EntityBatch over both APIs (4.7.0): CRUD, status by name, a filter, a join, getfields, cascades. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-batch: Batch and EntityBatch', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let contactId: number;
  let batchId: number;
  let itemId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-batch'] });
    const root = await crm.userWith('root', ['*']);
    admin = root.headers;
    contactId = root.contactId;
  });
  after(() => crm?.t.close());

  it('4.7.0 Batch API: create with the status by name, total as an exact decimal, get with a filter', async () => {
    const created = await crm.api3(admin, 'Batch', 'create', {
      name: 'gifts-2026-11',
      title: 'November gifts',
      status_id: 'Open',
      type_id: 'Contribution',
      total: '1250.50',
      item_count: 3,
      created_id: contactId,
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    batchId = Number(created.id);
    expect(created.values[String(batchId)]).to.include({ status_id: '1', total: '1250.50' });
    const got = await crm.api4(admin, 'Batch', 'get', {
      select: ['title', 'status_id:name', 'created_id.display_name'],
      where: [['status_id:name', '=', 'Open']],
    });
    expect(got.values).to.have.length(1);
    expect(got.values[0]).to.include({ title: 'November gifts', 'status_id:name': 'Open' });
    expect(got.values[0]['created_id.display_name']).to.be.a('string');
    expect(await crm.api3(admin, 'Batch', 'create', { title: 'x', status_id: 'Lost' })).to.include({ is_error: 1 });
    expect(await crm.api3(admin, 'Batch', 'create', { title: 'no status' })).to.include({ is_error: 1 });
  });

  it('4.7.0 EntityBatch API: a record in a batch (checked to exist), joined to its batch; once per batch', async () => {
    const added = await crm.api3(admin, 'EntityBatch', 'create', {
      batch_id: batchId,
      entity_table: 'civicrm_contact',
      entity_id: contactId,
    });
    expect(added, JSON.stringify(added)).to.include({ is_error: 0 });
    itemId = Number(added.id);
    const got = await crm.api4(admin, 'EntityBatch', 'get', {
      select: ['entity_id', 'batch_id.title'],
      where: [['batch_id', '=', batchId]],
    });
    expect(got.values[0]).to.include({ entity_id: contactId, 'batch_id.title': 'November gifts' });
    const nowhere = await crm.api3(admin, 'EntityBatch', 'create', {
      batch_id: batchId,
      entity_table: 'civicrm_contact',
      entity_id: 999999,
    });
    expect(nowhere).to.include({ is_error: 1 });
    const twice = await crm.api3(admin, 'EntityBatch', 'create', {
      batch_id: batchId,
      entity_table: 'civicrm_contact',
      entity_id: contactId,
    });
    expect(twice).to.include({ is_error: 1 });
  });

  it('update, getfields; deleting the batch deletes its EntityBatch rows', async () => {
    const updated = await crm.api4(admin, 'Batch', 'update', {
      where: [['id', '=', batchId]],
      values: { 'status_id:name': 'Closed' },
    });
    expect(updated.values[0]).to.include({ status_id: 2, modified_id: contactId });
    expect(updated.values[0].modified_date).to.be.a('string');
    const fields = await crm.api3(admin, 'EntityBatch', 'getfields', { action: 'create' });
    expect(Object.keys(fields.values)).to.include.members(['batch_id', 'entity_table', 'entity_id']);
    expect(await crm.api3(admin, 'Batch', 'delete', { id: batchId })).to.include({ is_error: 0 });
    expect(await crm.api3(admin, 'EntityBatch', 'getcount', { id: itemId })).to.include({ result: 0 });
  });
});
