/** The provider list cache: TTL, flush, a flush during a build, one build for concurrent callers. */
import { expect } from 'chai';
import { HookBus } from '../../../kernel';
import { oauthProviders } from '../../../plugins/oauth-client/hooks';
import { ProviderRegistry } from '../../../plugins/oauth-client/providers';

function setup(cacheTtl = 600) {
  const bus = new HookBus();
  let builds = 0;
  let title = 'v1';
  let gate: Promise<void> | undefined;
  bus.tap('fixture', oauthProviders, async () => {
    builds++;
    const t = title;
    if (gate) await gate;
    return { name: 'p', title: t, options: {} };
  });
  let now = 1_000_000;
  const registry = new ProviderRegistry({ hooks: bus, classes: () => new Map(), cacheTtl, now: () => now });
  return {
    registry,
    builds: () => builds,
    setTitle: (t: string) => (title = t),
    advance: (ms: number) => (now += ms),
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('oauth-client provider cache', () => {
  it('builds once for concurrent callers and serves the cache within the TTL', async () => {
    const s = setup();
    await Promise.all([s.registry.list(), s.registry.get('p'), s.registry.has('p')]);
    expect(s.builds()).to.equal(1);
    s.setTitle('v2');
    s.advance(599_000);
    expect((await s.registry.get('p')).title).to.equal('v1');
    s.advance(2_000);
    expect((await s.registry.get('p')).title).to.equal('v2');
    expect(s.builds()).to.equal(2);
  });

  it('rebuilds after a flush', async () => {
    const s = setup();
    await s.registry.list();
    s.setTitle('v2');
    s.registry.flush();
    expect((await s.registry.get('p')).title).to.equal('v2');
  });

  it('does not keep a list whose build started before a flush', async () => {
    const s = setup();
    const release = s.hold();
    const stale = s.registry.list();
    s.setTitle('v2');
    s.registry.flush();
    const fresh = s.registry.get('p');
    release();
    expect((await stale)[0].title).to.equal('v1');
    expect((await fresh).title).to.equal('v2');
    expect((await s.registry.get('p')).title).to.equal('v2');
    expect(s.builds()).to.equal(2);
  });

  it('rebuilds on every use with cacheTtl 0', async () => {
    const s = setup(0);
    await s.registry.list();
    await s.registry.list();
    expect(s.builds()).to.equal(2);
  });
});
