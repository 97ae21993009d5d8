import { expect } from 'chai';
import { BASE_PLUGINS, bootRest } from './helpers';

const USER = { 'x-test-perms': 'access CRM', 'x-test-flow': 'param' };

describe('rest-api3: output formats', () => {
  it('answers a request without json with a JSON envelope and HTTP 406 when format-xml is not enabled', async () => {
    const testKernel = await bootRest({ plugins: BASE_PLUGINS.filter((p) => p !== 'format-xml') });
    try {
      const http = await testKernel.http();
      for (const path of ['/crm/ajax/rest', '/crm/extern/rest.php', '/wp-json/crm/v3/rest']) {
        const res = await http.post(path).set(USER).type('form').send('entity=TestThing&action=create&name=x');
        expect(res.status, path).to.equal(406);
        expect(res.type).to.equal('application/json');
        expect(res.body).to.deep.equal({
          error_code: 'xml_not_enabled',
          is_error: 1,
          error_message: 'XML output is not enabled on this server. Send json=1 (or json={…params…}) to get JSON.',
        });
      }
      const json = await http.get('/crm/ajax/rest?entity=TestThing&action=getcount&json=1').set(USER);
      expect(json.text).to.equal('{"is_error":0,"result":2}');
      // Auth refusals are answered in JSON too.
      const refused = await http
        .get('/crm/extern/rest.php?entity=TestThing&action=get')
        .set({ 'x-test-reject': 'Failed to authenticate key' });
      expect(refused.status).to.equal(406);
    } finally {
      await testKernel.close();
    }
  });

  it('stops the boot when two plugins contribute a format with the same name, naming both', async () => {
    let error: Error | undefined;
    try {
      const t = await bootRest({ plugins: [...BASE_PLUGINS, 'dup-json-format'] });
      await t.close();
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).to.match(
      /Output format 'json' is contributed by both (format-json and dup-json-format|dup-json-format and format-json)/,
    );
  });
});
