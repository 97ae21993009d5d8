import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { TestKernel } from '../../../host/testing';
import { authxHeaders } from '../../../plugins/auth-authx';
import { permissionAliases } from '../../../plugins/users';
import { BASE_PLUGINS, bootRest } from './helpers';

const KEYED = { 'x-test-perms': 'access CRM', 'x-test-flow': 'legacyrest' };

describe('compat-civicrm', () => {
  it('is off by default', async () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../../plugins/compat-civicrm/manifest.json', import.meta.url), 'utf8'),
    );
    expect(manifest.enabledByDefault).to.equal(false);
    const t = await bootRest();
    try {
      const res = await (await t.http()).get('/civicrm/ajax/rest?entity=TestThing&action=getcount&json=1').set(KEYED);
      expect(res.status).to.equal(404);
      expect(t.kernel.hooks.tappers(authxHeaders)).to.not.include('compat-civicrm');
      expect(t.kernel.hooks.tappers(permissionAliases)).to.not.include('compat-civicrm');
    } finally {
      await t.close();
    }
  });

  describe('when enabled', () => {
    let testKernel: TestKernel;
    before(async () => {
      testKernel = await bootRest({ plugins: [...BASE_PLUGINS, 'api4', 'rest-api4', 'compat-civicrm'] });
    });
    after(() => testKernel.close());

    it('serves the reference spellings with the same handlers, auth lists and route names', async () => {
      const http = await testKernel.http();
      expect((await http.get('/civicrm/ajax/rest?entity=TestThing&action=getcount&json=1').set(KEYED)).text).to.equal(
        '{"is_error":0,"result":2}',
      );
      expect((await http.get('/sites/all/modules/civicrm/extern/rest.php?q=civicrm/ping&json=1')).text).to.equal(
        '{"is_error":0,"message":"PONG: "}',
      );
      const wp = await http.get('/wp-json/civicrm/v3/rest?entity=TestThing&action=get&json=1').set(KEYED);
      expect(wp.body.values).to.be.an('array');
      // The neutral spellings stay.
      expect((await http.get('/crm/ajax/rest?entity=TestThing&action=getcount&json=1').set(KEYED)).status).to.equal(
        200,
      );
      // The CSRF guard applies on the compat ajax route too.
      const csrf = await http
        .get('/civicrm/ajax/rest?entity=TestThing&action=get&json=1')
        .set({ 'x-test-perms': 'access CRM', 'x-test-flow': 'session' });
      expect(csrf.body.reason).to.equal('CSRF suspected');
      const ajax = await http.get('/civicrm/ajax/rest?entity=TestThing&action=getparams&json=1').set(KEYED);
      expect(ajax.status).to.equal(200);
      const { collectRoutes } = await import('../../../host');
      const routes = (await collectRoutes(testKernel.kernel)).filter((r) => r.plugin === 'compat-civicrm');
      expect(routes.map((r) => [r.id, r.auth])).to.deep.equal([
        ['compat-civicrm:ajax', ['authx', 'legacy-keys', 'session']],
        ['compat-civicrm:extern', ['legacy-keys']],
        ['compat-civicrm:wp', ['legacy-keys']],
        ['compat-civicrm:api4-call', ['authx', 'legacy-keys', 'session']],
        ['compat-civicrm:api4-multi', ['authx', 'legacy-keys', 'session']],
      ]);
    });

    it('contributes header and permission aliases through the hooks the auth plugins own', async () => {
      const [headers] = await testKernel.kernel.hooks.run(authxHeaders);
      expect(headers.auth).to.deep.equal(['x-civi-auth']);
      expect(headers.siteKey).to.deep.equal(['x-civi-key']);
      const [aliases] = await testKernel.kernel.hooks.run(permissionAliases);
      expect(aliases).to.include({
        'administer CiviCRM': 'administer CRM',
        'access CiviCRM': 'access CRM',
      });
    });
  });

  it('does not mount extern/rest.php twice when rest-api3 already uses the CiviCRM prefix', async () => {
    const t = await bootRest({
      plugins: [...BASE_PLUGINS, 'api4', 'rest-api4', 'compat-civicrm'],
      config: { pluginConfig: { 'rest-api3': { externPrefix: '/sites/all/modules/civicrm' } } },
    });
    try {
      const res = await (await t.http()).get('/sites/all/modules/civicrm/extern/rest.php?q=civicrm/ping&json=1');
      expect(res.text).to.equal('{"is_error":0,"message":"PONG: "}');
    } finally {
      await t.close();
    }
  });
});
