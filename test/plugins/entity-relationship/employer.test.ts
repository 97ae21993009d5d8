/** A contact's current employer and its "Employee of" relationship move together (as in the reference). */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

type Row = Record<string, unknown>;

describe('entity-relationship: current employer ↔ Employee of relationship', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let acme: number;
  let globex: number;
  let employeeOf: number;

  const org = async (name: string) =>
    Number((await crm.api3(admin, 'Contact', 'create', { contact_type: 'Organization', organization_name: name })).id);
  const jobs = async (contactId: number): Promise<Row[]> =>
    (
      await crm.api4(admin, 'Relationship', 'get', {
        select: ['contact_id_b', 'is_active', 'end_date'],
        where: [
          ['contact_id_a', '=', contactId],
          ['relationship_type_id', '=', employeeOf],
        ],
        orderBy: { id: 'ASC' },
      })
    ).values;
  const employer = async (contactId: number) =>
    (await crm.api4(admin, 'Contact', 'get', { select: ['employer_id'], where: [['id', '=', contactId]] })).values[0]
      .employer_id;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-relationship'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    acme = await org('Acme');
    globex = await org('Globex');
    employeeOf = Number((await crm.api3(admin, 'RelationshipType', 'getsingle', { name_a_b: 'Employee of' })).id);
  });
  after(() => crm?.t.close());

  it('setting, changing and clearing the employer starts and ends the relationship', async () => {
    const made = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Ann',
      current_employer: 'Acme',
    });
    const ann = Number(made.id);
    expect(await employer(ann)).to.equal(acme);
    expect(await jobs(ann)).to.deep.equal([{ contact_id_b: acme, is_active: true, end_date: null }]);

    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', ann]], values: { employer_id: globex } });
    const today = new Date().toISOString().slice(0, 10);
    expect(await jobs(ann)).to.deep.equal([
      { contact_id_b: acme, is_active: false, end_date: today },
      { contact_id_b: globex, is_active: true, end_date: null },
    ]);

    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', ann]], values: { employer_id: null } });
    expect((await jobs(ann)).map((row) => row.is_active)).to.deep.equal([false, false]);
    const current = await crm.api3(admin, 'Contact', 'getsingle', { id: ann, return: 'current_employer' });
    expect(current.current_employer).to.equal('');
  });

  it('a relationship saved with is_current_employer sets the employer; disabling or deleting it clears it', async () => {
    const bob = Number(
      (await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Bob' })).id,
    );
    const job = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: bob,
      contact_id_b: acme,
      relationship_type_id: employeeOf,
      is_current_employer: 1,
    });
    expect(job.is_error, JSON.stringify(job)).to.equal(0);
    expect(await employer(bob)).to.equal(acme);
    expect(await jobs(bob)).to.have.length(1);

    await crm.api3(admin, 'Relationship', 'create', { id: job.id, is_active: 0 });
    expect(await employer(bob)).to.equal(null);

    await crm.api3(admin, 'Relationship', 'create', { id: job.id, is_active: 1, is_current_employer: 1 });
    expect(await employer(bob)).to.equal(acme);
    expect((await crm.api3(admin, 'Relationship', 'delete', { id: job.id })).is_error).to.equal(0);
    expect(await employer(bob)).to.equal(null);
    // A relationship of another type leaves the employer alone.
    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', bob]], values: { employer_id: globex } });
    const volunteer = Number(
      (await crm.api3(admin, 'RelationshipType', 'getsingle', { name_a_b: 'Volunteer for' })).id,
    );
    const help = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: bob,
      contact_id_b: globex,
      relationship_type_id: volunteer,
    });
    await crm.api3(admin, 'Relationship', 'delete', { id: help.id });
    expect(await employer(bob)).to.equal(globex);
  });
});
