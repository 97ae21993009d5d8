import { expect } from 'chai';
import fc from 'fast-check';
import type { TestKernel } from '../../../host/testing';
import { BASE_PLUGINS, bootRest } from './helpers';

const names = fc.constantFrom(
  'entity',
  'action',
  'json',
  'sequential',
  'options[limit]',
  'return[]',
  'id[IN][]',
  'api.TestThing.get',
  'q',
  'prettyprint',
  'version',
  'key',
  'api_key',
  'debug',
  'check_permissions',
  '_authx',
  'x[',
  'a]b',
  '__proto__[x]',
  'option.offset',
);
const values = fc.oneof(
  fc.constantFrom(
    'TestThing',
    'Contact',
    'api3',
    'get',
    'getsingle',
    'getcount',
    'create',
    'delete',
    'call',
    'getcrash',
    'getfail',
    '1',
    '0',
    'civicrm/ping',
    'civicrm/TestThing/get',
    'crm/x',
    '{',
    '{"a":',
    '{"sequential":1}',
    '[["TestThing","get"]]',
    '[1,2]',
    '{"api.TestThing.get":{}}',
    'false',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const pairs = fc.array(fc.tuple(names, values), { maxLength: 8 });
const encodePairs = (ps: Array<[string, string]>) =>
  ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
const headerSets = fc.constantFrom<Record<string, string>>(
  {},
  { 'x-test-perms': 'access CRM', 'x-test-flow': 'param' },
  { 'x-test-perms': 'access CRM,administer CRM', 'x-test-flow': 'header', 'X-Requested-With': 'XMLHttpRequest' },
  { 'x-test-perms': '*', 'x-test-flow': 'session' },
  { 'x-test-reject': 'Failed to authenticate key' },
);

describe('rest-api3: random requests (property)', () => {
  let testKernel: TestKernel;
  before(async () => {
    testKernel = await bootRest({ plugins: [...BASE_PLUGINS, 'api4', 'rest-api4', 'compat-civicrm'] });
  });
  after(() => testKernel.close());

  it('never answer with a 5xx, a stack trace or SQL text', async () => {
    const http = await testKernel.http();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/crm/ajax/rest', '/crm/extern/rest.php', '/wp-json/crm/v3/rest', '/civicrm/ajax/rest'),
        fc.constantFrom('GET', 'POST-form', 'POST-multipart', 'POST-json', 'POST-raw'),
        pairs,
        pairs,
        headerSets,
        async (path, method, query, body, headers) => {
          const url = `${path}?${encodePairs(query)}`;
          let req;
          if (method === 'GET') req = http.get(url).set(headers);
          else if (method === 'POST-form') req = http.post(url).set(headers).type('form').send(encodePairs(body));
          else if (method === 'POST-json') req = http.post(url).set(headers).send(Object.fromEntries(body));
          else if (method === 'POST-raw')
            req = http
              .post(url)
              .set(headers)
              .set('Content-Type', 'application/x-www-form-urlencoded')
              .send(body.map(([k, v]) => `${k}=${v}`).join('&'));
          else {
            req = http.post(url).set(headers);
            for (const [k, value] of body) req = req.field(k, value === '' ? ' ' : value);
          }
          const res = await req;
          expect(res.status, `${method} ${url}`).to.be.below(500);
          expect(res.text).to.not.match(/\bat .*\.(ts|js):\d+|crm_contact|syntax error/);
        },
      ),
      { numRuns: 250 },
    );
  });
});
