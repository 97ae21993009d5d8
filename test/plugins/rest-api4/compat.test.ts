/** The /civicrm/ajax/api4 spellings (compat-civicrm) and the csrfGuard option. */
import { expect } from 'chai';
import { bootApi4, PLUGINS, SITE_KEY, type Api4Kernel, type User } from '../api4/helpers';

describe('rest-api4 under compat-civicrm, CSRF guard switched off', () => {
  let k: Api4Kernel;
  let admin: User;
  before(async () => {
    k = await bootApi4({
      plugins: [...PLUGINS, 'format-json', 'rest-api3', 'compat-civicrm'],
      config: { 'rest-api4': { csrfGuard: false } },
    });
    admin = await k.user('boss', ['*']);
  });
  after(async () => k?.t.close());

  it('serves /civicrm/ajax/api4/{Entity}/{action} and the multi-call with the same handlers', async () => {
    const auth = { Authorization: `Bearer ${admin.key}` };
    const created = await k
      .req()
      .post('/civicrm/ajax/api4/Contact/create')
      .set(auth)
      .type('form')
      .send({ params: JSON.stringify({ values: { contact_type: 'Individual', first_name: 'Cat' } }) });
    expect(created.status).to.equal(200);
    const id = created.body.values[0].id;
    const got = await k
      .req()
      .get('/civicrm/ajax/api4/Contact/get')
      .set(auth)
      .query({ params: JSON.stringify({ select: ['first_name'], where: [['id', '=', id]] }) });
    expect(got.body).to.include({ entity: 'Contact', action: 'get', version: 4, count: 1 });
    const multi = await k
      .req()
      .post('/civicrm/ajax/api4')
      .set(auth)
      .type('form')
      .send({ calls: JSON.stringify({ one: ['Contact', 'get', { select: ['id'], where: [['id', '=', id]] }, 0] }) });
    expect(multi.body.one.values).to.deep.equal({ id });
    // The neutral spelling is still there.
    expect((await k.req().get('/crm/ajax/api4/Contact/getFields').set(auth).query({ params: '{}' })).status).to.equal(
      200,
    );
  });

  it('legacy keys there answer the legacyrest way', async () => {
    const bad = await k
      .req()
      .post('/civicrm/ajax/api4/Contact/get')
      .type('form')
      .send({ params: '{}', key: 'nope', api_key: admin.key });
    expect(bad.status).to.equal(200);
    expect(bad.type).to.equal('text/javascript');
    expect(JSON.parse(bad.text).error_message).to.match(/^FATAL: /);
    const ok = await k
      .req()
      .post('/civicrm/ajax/api4/Contact/get')
      .type('form')
      .send({ params: JSON.stringify({ select: ['row_count'] }), key: SITE_KEY, api_key: admin.key });
    expect(ok.status).to.equal(200);
    expect(ok.body.countMatched).to.be.a('number');
  });

  it('with csrfGuard off, the GET guard still applies', async () => {
    const res = await k
      .req()
      .get('/civicrm/ajax/api4/Contact/create')
      .set('Authorization', `Bearer ${admin.key}`)
      .query({ params: '{}' });
    expect(res.status).to.equal(405);
  });
});
