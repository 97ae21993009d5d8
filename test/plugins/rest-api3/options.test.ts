import { expect } from 'chai';
import { bootRest } from './helpers';

describe('rest-api3: options', () => {
  it('csrfGuard: false lets header and session flows through without X-Requested-With (the menu check stays)', async () => {
    const t = await bootRest({ config: { pluginConfig: { 'rest-api3': { csrfGuard: false } } } });
    try {
      const h = await t.http();
      const res = await h
        .get('/crm/ajax/rest?entity=TestThing&action=getcount&json=1')
        .set({ 'x-test-perms': 'access CRM', 'x-test-flow': 'session' });
      expect(res.text).to.equal('{"is_error":0,"result":2}');
      const anon = await h.get('/crm/ajax/rest?entity=TestThing&action=getcount&json=1');
      expect(anon.status).to.equal(403);
    } finally {
      await t.close();
    }
  });

  it('rejects an invalid externPrefix at boot, naming the key', async () => {
    let error: Error | undefined;
    try {
      await (await bootRest({ config: { pluginConfig: { 'rest-api3': { externPrefix: 'no-slash' } } } })).close();
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).to.match(/pluginConfig.rest-api3.externPrefix/);
  });
});
