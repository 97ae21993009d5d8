import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { KERNEL_VERSION, KernelError, planPlugins } from '../../kernel';
import { AggregateKernelError } from '../../kernel/errors';
import { finishConfig } from '../../host';
import { bootTestKernel } from '../../host/testing';
import { events, fixtureCollect, resetEvents } from '../fixtures/plugins/shared';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins');
const plan = (plugins: string[], extra: Record<string, unknown> = {}) =>
  planPlugins(finishConfig({ plugins, ...extra }), KERNEL_VERSION, [fixtures]);

function planError(plugins: string[], extra: Record<string, unknown> = {}): KernelError {
  try {
    plan(plugins, extra);
  } catch (err) {
    return err as KernelError;
  }
  throw new Error('expected the plan to fail');
}

async function bootError(plugins: string[], config: Record<string, unknown> = {}): Promise<KernelError> {
  try {
    const t = await bootTestKernel({ plugins, pluginDirs: [fixtures], config, migrate: false });
    await t.close();
  } catch (err) {
    return err as KernelError;
  }
  throw new Error('expected the boot to fail');
}

describe('kernel/loader', () => {
  it('orders plugins by dependency, then by name, whatever the config order', () => {
    expect(plan(['needs-a', 'system', 'ok-a']).map((p) => p.name)).to.deep.equal(['ok-a', 'needs-a', 'system']);
  });

  it('fills plugin options with the defaults of the manifest schema', () => {
    expect(plan(['ok-a'])[0].options).to.deep.equal({ greeting: 'hello' });
  });

  it('refuses a plugin whose dependency is not enabled, naming both', () => {
    const err = planError(['needs-a']);
    expect(err.code).to.equal('E_PLUGIN_DEPENDENCY');
    expect(err.message).to.contain('needs-a').and.contain('ok-a').and.contain('not enabled');
  });

  it('shows the path of a dependency cycle', () => {
    const err = planError(['cycle-x', 'cycle-y']);
    expect(err.code).to.equal('E_PLUGIN_CYCLE');
    expect(err.message).to.contain('cycle-x -> cycle-y -> cycle-x');
  });

  it('lists the available plugins when an unknown one is enabled', () => {
    const err = planError(['no-such-plugin']);
    expect(err.code).to.equal('E_PLUGIN_UNKNOWN');
    expect(err.message).to.contain('Available plugins:').and.contain('system').and.contain('ok-a');
  });

  it('reports a manifest that is not JSON or breaks the schema, naming the plugin', () => {
    expect(planError(['bad-manifest']).message)
      .to.contain('bad-manifest')
      .and.contain('not valid JSON');
    const err = planError(['wrong-kind']);
    expect(err.code).to.equal('E_MANIFEST_INVALID');
    expect(err.message).to.contain('wrong-kind').and.contain('kind');
  });

  it('ignores a broken plugin that is not enabled', () => {
    expect(plan(['system']).map((p) => p.name)).to.deep.equal(['system']);
  });

  it('refuses a plugin built for another kernel version', () => {
    expect(planError(['future-kernel']).code).to.equal('E_KERNEL_RANGE');
  });

  it('names the key path of an invalid plugin option', () => {
    const err = planError(['needs-config'], { pluginConfig: { 'needs-config': { token: 'short' } } });
    expect(err.code).to.equal('E_CONFIG_INVALID');
    expect(err.message).to.contain('pluginConfig.needs-config.token');
  });

  it('reports every problem at once', () => {
    const err = planError(['needs-a', 'cycle-x', 'cycle-y', 'future-kernel', 'nope']);
    expect(err).to.be.instanceOf(AggregateKernelError);
    const codes = (err as AggregateKernelError).errors.map((e) => e.code).sort();
    expect(codes).to.deep.equal(['E_KERNEL_RANGE', 'E_PLUGIN_CYCLE', 'E_PLUGIN_DEPENDENCY', 'E_PLUGIN_UNKNOWN']);
  });

  it('attributes an error thrown in register to its plugin', async () => {
    const err = await bootError(['throws-in-register']);
    expect(err.code).to.equal('E_PLUGIN_FAILED');
    expect(err.plugin).to.equal('throws-in-register');
    expect(err.message).to.contain('boom in register').and.contain('register');
  });

  it('times out a plugin that does not get ready, naming it', async () => {
    const err = await bootError(['slow-ready'], { pluginTimeoutMs: 1500 });
    expect(err.code).to.equal('E_PLUGIN_TIMEOUT');
    expect(err.plugin).to.equal('slow-ready');
    expect(err.message).to.contain('onReady');
  });

  it('refuses a service the manifest does not declare', async () => {
    const err = await bootError(['undeclared-service']);
    expect(err.code).to.equal('E_SERVICE_UNDECLARED');
    expect(err.message).to.contain('sneaky');
  });

  it('refuses the same action from two plugins, naming both', async () => {
    const err = await bootError(['ok-a', 'dup-action']);
    expect(err.code).to.equal('E_ACTION_DUPLICATE');
    expect(err.message).to.contain('ok-a').and.contain('dup-action');
  });

  it('seals the registries once every plugin registered', async () => {
    const err = await bootError(['ok-a', 'taps-late']);
    expect(err.code).to.equal('E_REGISTRY_SEALED');
    expect(err.message).to.contain('taps-late');
  });

  it('registers in order, readies in order, and closes in reverse order', async () => {
    resetEvents();
    const t = await bootTestKernel({ plugins: ['needs-a', 'ok-a'], pluginDirs: [fixtures], migrate: false });
    expect(await t.kernel.hooks.run(fixtureCollect)).to.deep.equal(['from-ok-a', 'from-needs-a-1', 'from-needs-a-2']);
    await t.close();
    expect(events()).to.deep.equal([
      'register:ok-a',
      'register:needs-a',
      'ready:ok-a',
      'ready:needs-a',
      'close:needs-a',
      'close:ok-a',
    ]);
  });

  it('enables the default set, adjusted by enable and disable, when no explicit list is given', () => {
    const names = (cfg: Record<string, unknown>) =>
      planPlugins(finishConfig(cfg), KERNEL_VERSION, [fixtures]).map((p) => p.name);
    expect(names({})).to.include('system');
    expect(names({ enable: ['ok-a'] })).to.include.members(['ok-a', 'system']);
    expect(names({ disable: ['system'] })).to.not.include('system');
  });
});
