/** Closing a kernel right after a custom-data write: the metadata reload the write started finishes first. */
import { expect } from 'chai';
import { bootTestKernel, principalWith } from '../../../host/testing';

describe('custom-data: a kernel closed right after a change', function () {
  this.timeout(60000);

  it('waits for the metadata reload its write started, so none fails under a closing pool', async () => {
    const crm = await bootTestKernel({ plugins: ['custom-data', 'api4'] });
    const call = (entity: string, values: Record<string, unknown>) =>
      crm.kernel.call({
        version: 4,
        entity,
        action: 'create',
        params: { values },
        principal: principalWith(['*']),
        trusted: true,
      });
    await call('CustomGroup', { title: 'Closing', extends: 'Contact' });
    await call('CustomField', { custom_group_id: 1, label: 'Badge', data_type: 'String', html_type: 'Text' });
    await crm.close(); // at once: a CLI command ends like this after its one call
    expect(crm.logs.join('')).to.not.contain('reloading metadata failed');
  });
});
