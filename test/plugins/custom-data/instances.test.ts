/**
 * Custom data with two instances on one PostgreSQL database: a field made through one is usable through the
 * other as soon as the change bus delivers, and two instances making the same field at once leave one field.
 * PostgreSQL only (embedded PGlite is single-process): skipped without DATABASE_URL.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import type { Kernel } from '../../../kernel';
import { createApp, createKernel, createLogger } from '../../../host';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';

describe('custom-data: two instances share custom fields', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let second: Kernel;
  let secondHttp: supertest.Agent;
  let admin: Headers;

  const api4On = async (http: supertest.Agent, entity: string, action: string, params: Row) =>
    (
      await http
        .post(`/crm/ajax/api4/${entity}/${action}`)
        .set(admin)
        .type('form')
        .send({ params: JSON.stringify(params) })
    ).body as Row & { values: Row[] };

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    crm = await bootEntityHttp({ plugins: ['custom-data'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    second = await createKernel({ config: crm.t.config, log: createLogger({ level: 'silent' }) });
    secondHttp = supertest.agent((await createApp(second)).callback());
  });
  after(async () => {
    await second?.close();
    await crm?.t.close();
  });

  it('a field created through one instance is usable through the other at once', async () => {
    const group = await crm.api4(admin, 'CustomGroup', 'create', { values: { title: 'Shared', extends: 'Contact' } });
    const groupId = group.values[0].id;
    await crm.api4(admin, 'CustomField', 'create', {
      values: { custom_group_id: groupId, label: 'Shoe size', data_type: 'Int', html_type: 'Text' },
    });
    // The notification is sent at commit; the other instance reloads as soon as it arrives.
    let made: Row & { values: Row[] } = { values: [] };
    for (let attempt = 0; attempt < 50; attempt++) {
      made = await api4On(secondHttp, 'Contact', 'create', {
        values: { contact_type: 'Individual', first_name: 'Zed', 'Shared.Shoe_size': 44 },
      });
      if (!made.error_message) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(made, JSON.stringify(made)).to.not.have.property('error_message');
    const read = await crm.api4(admin, 'Contact', 'get', {
      select: ['Shared.Shoe_size'],
      where: [['id', '=', made.values[0].id]],
    });
    expect(read.values[0]['Shared.Shoe_size']).to.equal(44);
  });

  it('two instances making the same field at once: one field, one clear refusal', async () => {
    const group = await crm.api4(admin, 'CustomGroup', 'create', { values: { title: 'Raced', extends: 'Contact' } });
    const values = { custom_group_id: group.values[0].id, label: 'Twin', data_type: 'String', html_type: 'Text' };
    const answers = await Promise.all([
      crm.api4(admin, 'CustomField', 'create', { values }),
      api4On(secondHttp, 'CustomField', 'create', { values }),
    ]);
    const refused = answers.filter((answer) => answer.error_message);
    expect(refused, JSON.stringify(answers)).to.have.length(1);
    expect(String(refused[0].error_message)).to.match(/already exists/);
    const fields = await crm.api4(admin, 'CustomField', 'get', {
      where: [['custom_group_id', '=', group.values[0].id]],
    });
    expect(fields.values).to.have.length(1);
  });
});
