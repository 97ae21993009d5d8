/** Authentication, CSRF and GET guards, statuses and error bodies, row access, over the real route. */
import { expect } from 'chai';
import { bearer, bootApi4, SITE_KEY, type Api4Kernel, type User } from '../api4/helpers';

const CSRF = 'SECURITY ALERT: Ajax requests can only be issued by javascript clients, eg. CRM.api4().';
const GET_GUARD = 'SECURITY: All requests that modify the database must be http POST, not GET.';

describe('rest-api4: auth, guards, statuses', () => {
  let k: Api4Kernel;
  let admin: User;
  let staff: User;
  let me: User;
  let ann: number;
  const json = (p: unknown) => ({ params: JSON.stringify(p) });

  before(async () => {
    k = await bootApi4();
    admin = await k.user('boss', ['*']);
    staff = await k.user('staff', ['access CRM', 'view all contacts']);
    me = await k.user('me', ['view my contact']);
    // Logged-in users hold `edit my contact` by default: `me` holds `view my contact` only.
    await k.identity.revokePermissions(k.t.kernel.db, 'authenticated', ['edit my contact']);
    const result = await k
      .req()
      .post('/crm/ajax/api4/Contact/create')
      .set(bearer(admin.key))
      .type('form')
      .send(json({ values: { contact_type: 'Individual', first_name: 'Ann' } }));
    ann = result.body.values[0].id;
    await k
      .req()
      .post('/crm/ajax/api4/Email/create')
      .set(bearer(admin.key))
      .type('form')
      .send(json({ values: { contact_id: ann, email: 'ann@example.org' } }));
    await k
      .req()
      .post('/crm/ajax/api4/Email/create')
      .set(bearer(admin.key))
      .type('form')
      .send(json({ values: { contact_id: me.contactId, email: 'me@example.org' } }));
  });
  after(async () => k?.t.close());

  describe('authentication', () => {
    it("a bad bearer credential is AuthX's HTTP 401 text", async () => {
      const res = await k.req().get('/crm/ajax/api4/Contact/get').set(bearer('not-a-key')).query(json({}));
      expect(res.status).to.equal(401);
      expect(res.type).to.equal('text/plain');
      expect(res.text).to.match(/^HTTP 401 /);
    });
    it('legacy keys on /crm/ajax/api4: the legacyrest flow (CSRF-exempt) and its refusal', async () => {
      const ok = await k
        .req()
        .post('/crm/ajax/api4/Contact/get')
        .type('form')
        .send({ ...json({ select: ['id'], where: [['id', '=', ann]] }), key: SITE_KEY, api_key: admin.key });
      expect(ok.status).to.equal(200);
      expect(ok.body.values).to.deep.equal([{ id: ann }]);
      const bad = await k
        .req()
        .post('/crm/ajax/api4/Contact/get')
        .type('form')
        .send({ ...json({}), key: 'wrong-site-key', api_key: admin.key });
      expect(bad.status).to.equal(200);
      expect(bad.type).to.equal('text/javascript');
      expect(JSON.parse(bad.text)).to.deep.equal({
        error_message: 'FATAL: Login not permitted. Must satisfy guard (site_key).',
        is_error: 1,
      });
    });
    it('no credential runs as anonymous: entity-level refusals are 403 in the reference wording', async () => {
      const res = await k
        .req()
        .post('/crm/ajax/api4/Contact/create')
        .set('X-Requested-With', 'XMLHttpRequest')
        .type('form')
        .send(json({ values: { contact_type: 'Individual' } }));
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({
        error_code: 0,
        error_message: 'Authorization failed: CRM APIv4 (Contact::create)',
        status: 403,
      });
      const staffCreate = await k
        .req()
        .post('/crm/ajax/api4/Contact/create')
        .set(bearer(staff.key))
        .type('form')
        .send(json({ values: { contact_type: 'Individual' } }));
      expect(staffCreate.status).to.equal(403);
      expect(staffCreate.body.error_message).to.equal('Authorization failed: CRM APIv4 (Contact::create)');
    });
  });

  describe('CSRF guard', () => {
    it('the header flow without X-Requested-With is refused with 400', async () => {
      const res = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set('Authorization', `Bearer ${admin.key}`)
        .query(json({}));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error_code: 400, error_message: CSRF });
      const multi = await k
        .req()
        .post('/crm/ajax/api4')
        .set('Authorization', `Bearer ${admin.key}`)
        .type('form')
        .send({ calls: '{}' });
      expect(multi.status).to.equal(400);
    });
    it('param and xheader flows, and OPTIONS, are exempt', async () => {
      const param = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .query({ ...json({ select: ['id'], where: [['id', '=', ann]] }), _authx: `Bearer ${admin.key}` });
      expect(param.status).to.equal(200);
      expect(param.body.values).to.deep.equal([{ id: ann }]);
      const xheader = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set('X-Crm-Auth', `Bearer ${admin.key}`)
        .query(json({ select: ['id'], where: [['id', '=', ann]] }));
      expect(xheader.status).to.equal(200);
      const options = await k.req().options('/crm/ajax/api4/Contact/get').set('Authorization', `Bearer ${admin.key}`);
      expect(options.status).to.equal(200);
    });
  });

  describe('GET guard', () => {
    it('only get* and autocomplete over GET; anything else is 405', async () => {
      for (const action of ['create', 'delete', 'save', 'explode']) {
        const entity = action === 'explode' ? 'Api4Fixture' : 'Contact';
        const res = await k
          .req()
          .get(`/crm/ajax/api4/${entity}/${action}`)
          .set(bearer(admin.key))
          .query(json({ values: { contact_type: 'Individual' }, where: [['id', '=', ann]] }));
        expect(res.status, action).to.equal(405);
        expect(res.body.error_message).to.equal(GET_GUARD);
      }
      const chained = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set(bearer(admin.key))
        .query(json({ chain: { x: ['Email', 'delete', { where: [['id', '>', 0]] }] } }));
      expect(chained.status).to.equal(405);
      expect(
        (await k.req().get('/crm/ajax/api4/Contact/getFields').set(bearer(admin.key)).query(json({}))).status,
      ).to.equal(200);
      const calls = JSON.stringify({ a: ['Contact', 'create', { values: { contact_type: 'Individual' } }] });
      const multi = await k.req().get('/crm/ajax/api4').set(bearer(admin.key)).query({ calls });
      expect(multi.status).to.equal(405);
      expect(multi.body.a.error_message).to.equal(GET_GUARD);
    });
  });

  describe("caller mistakes: 404 and 400 envelopes (not the reference's 500)", () => {
    const call = (path: string, params: unknown) =>
      k.req().post(`/crm/ajax/api4/${path}`).set(bearer(admin.key)).type('form').send(json(params));
    it('unknown entity or action → 404', async () => {
      for (const path of ['Nope/get', 'Contact/frobnicate', 'contact_x/get']) {
        const res = await call(path, {});
        expect(res.status, path).to.equal(404);
        expect(res.body).to.include({ error_code: 'E_ACTION_NOT_FOUND', status: 404 });
        expect(res.body.error_message).to.match(/^API \(.*\) does not exist/);
      }
    });
    it('invalid field, operator, params or JSON → 400 with the problem named', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ select: ['no_such_field'] }, /Invalid field 'no_such_field'/],
        [{ where: [['first_name', 'SOUNDS LIKE', 'x']] }, /Illegal operator/],
        [{ where: [['first_name; drop table crm_contact', '=', 'x']] }, /Invalid field/],
        [{ where: [['id', '=', 'abc']] }, /expected an integer/],
        [{ where: [['id', 'IN', 5]] }, /needs a list/],
        [{ orderBy: { first_name: 'sideways' } }, /Invalid sort direction/],
        [{ limit: -1 }, /Invalid params/],
        [{ bogus: 1 }, /Invalid params/],
        [{ where: 'id=1' }, /Invalid params|must be a list/],
        [{ select: ['contact_id.contact_id.contact_id.contact_id.contact_id.id'] }, /Invalid field|Too many joins/],
      ];
      for (const [params, message] of cases) {
        const path = JSON.stringify(params).includes('contact_id.') ? 'Email/get' : 'Contact/get';
        const res = await call(path, params);
        expect(res.status, JSON.stringify(params)).to.equal(400);
        expect(res.body.error_code).to.equal('E_INVALID_PARAMS');
        expect(res.body.error_message, JSON.stringify(params)).to.match(message);
        expect(res.text).not.to.match(/select .* from|insert into|syntax error|\bat .*\.ts/i);
      }
      const badJson = await k
        .req()
        .post('/crm/ajax/api4/Contact/get')
        .set(bearer(admin.key))
        .type('form')
        .send({ params: '{oops' });
      expect(badJson.status).to.equal(400);
      expect(badJson.body.error_message).to.equal('Invalid JSON in params');
    });
  });

  describe('unexpected errors → 500', () => {
    it("the reference's generic message with the request id; details only with view debug output", async () => {
      const res = await k
        .req()
        .post('/crm/ajax/api4/Api4Fixture/explode')
        .set(bearer(staff.key))
        .set('X-Request-Id', 'req-500-a')
        .type('form')
        .send(json({}));
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({
        error_code: '1',
        error_message: 'Sorry an error occurred and your request was not completed. (Error ID: req-500-a)',
        status: 500,
      });
      expect(res.text).not.to.include('kaboom');
      expect(k.t.logs.some((l) => l.includes('req-500-a') && l.includes('kaboom'))).to.equal(true);
      const dbg = await k
        .req()
        .get('/crm/ajax/api4/Api4Fixture/getBoom')
        .set(bearer(admin.key))
        .set('X-Request-Id', 'req-500-b')
        .query(json({}));
      expect(dbg.status).to.equal(500);
      expect(dbg.body).to.deep.equal({
        error_id: 'req-500-b',
        error_code: 'E_INTERNAL',
        error_message: 'kaboom: internal detail',
        status: 500,
      });
    });
  });

  describe('row access (entity.access) with view my contact only', () => {
    it("get sees only the caller's own contact and its emails; joins too", async () => {
      const contacts = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set(bearer(me.key))
        .query(json({ select: ['id'] }));
      expect(contacts.status).to.equal(200);
      expect(contacts.body.values).to.deep.equal([{ id: me.contactId }]);
      const emails = await k
        .req()
        .get('/crm/ajax/api4/Email/get')
        .set(bearer(me.key))
        .query(json({ select: ['email'] }));
      expect(emails.body.values).to.deep.equal([{ email: 'me@example.org' }]);
      const count = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set(bearer(me.key))
        .query(json({ select: ['row_count'] }));
      expect(count.body.countMatched).to.equal(1);
      // checkPermissions is forced on over HTTP.
      const forced = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set(bearer(me.key))
        .query(json({ select: ['id'], checkPermissions: false }));
      expect(forced.body.values).to.deep.equal([{ id: me.contactId }]);
      const joined = await k
        .req()
        .get('/crm/ajax/api4/Email/get')
        .set(bearer(me.key))
        .query(json({ select: ['email'], where: [['contact_id.first_name', '=', 'Ann']] }));
      expect(joined.body.values).to.deep.equal([]);
    });
    it("writes: others' records are not matched; a visible record without edit access is 403 ACL check failed", async () => {
      const other = await k
        .req()
        .post('/crm/ajax/api4/Contact/update')
        .set(bearer(me.key))
        .type('form')
        .send(json({ where: [['id', '=', ann]], values: { nick_name: 'X' } }));
      expect(other.status).to.equal(200);
      expect(other.body.count).to.equal(0);
      const own = await k
        .req()
        .post('/crm/ajax/api4/Contact/update')
        .set(bearer(me.key))
        .type('form')
        .send(json({ where: [['id', '=', me.contactId]], values: { nick_name: 'X' } }));
      expect(own.status).to.equal(403);
      expect(own.body).to.deep.equal({ error_code: 0, error_message: 'ACL check failed', status: 403 });
      const staffEdit = await k
        .req()
        .post('/crm/ajax/api4/Contact/save')
        .set(bearer(staff.key))
        .type('form')
        .send(json({ records: [{ id: ann, nick_name: 'Y' }] }));
      expect(staffEdit.status).to.equal(403);
      const email = await k
        .req()
        .post('/crm/ajax/api4/Email/create')
        .set(bearer(me.key))
        .type('form')
        .send(json({ values: { contact_id: ann, email: 'x@example.org' } }));
      expect(email.status).to.equal(403);
      const check = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set(bearer(admin.key))
        .query(json({ select: ['nick_name'], where: [['id', '=', ann]] }));
      expect(check.body.values).to.deep.equal([{ nick_name: null }]);
    });
  });
});
