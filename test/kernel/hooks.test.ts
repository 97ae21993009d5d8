import { expect } from 'chai';
import { defineHook, HookBus, KernelError, Stage } from '../../kernel';
import { failure as rejection } from '../../host/testing';

const series = defineHook.series<[string[]]>('t.series');
const waterfall = defineHook.waterfall<{ n: number }, [string]>('t.waterfall');
const bail = defineHook.bail<string, [number]>('t.bail');
const collect = defineHook.collect<string, [string]>('t.collect');

describe('kernel/hooks', () => {
  describe('series', () => {
    it('runs every tap in stage order, ties in registration order', async () => {
      const bus = new HookBus();
      bus.tap('late', series, (log) => void log.push('late'), { stage: Stage.LATE });
      bus.tap('a', series, (log) => void log.push('a'));
      bus.tap('early', series, (log) => void log.push('early'), { stage: Stage.EARLY });
      bus.tap('b', series, (log) => void log.push('b'));
      const log: string[] = [];
      await bus.run(series, log);
      expect(log).to.deep.equal(['early', 'a', 'b', 'late']);
    });

    it('lets a tap run before a named plugin whatever the stages', async () => {
      const bus = new HookBus();
      bus.tap('first', series, (log) => void log.push('first'), { stage: Stage.EARLY });
      bus.tap('target', series, (log) => void log.push('target'));
      bus.tap('eager', series, (log) => void log.push('eager'), { stage: Stage.LATE, before: 'first' });
      const log: string[] = [];
      await bus.run(series, log);
      expect(log).to.deep.equal(['eager', 'first', 'target']);
    });

    it('stops at the first throw and names the plugin that threw', async () => {
      const bus = new HookBus();
      const log: string[] = [];
      bus.tap('good', series, (l) => void l.push('good'));
      bus.tap('broken', series, () => {
        throw new Error('kaput');
      });
      bus.tap('never', series, (l) => void l.push('never'));
      const err = await rejection(bus.run(series, log));
      expect(err.code).to.equal('E_PLUGIN_FAILED');
      expect(err.plugin).to.equal('broken');
      expect(err.details).to.deep.equal({ plugin: 'broken', hook: 't.series' });
      expect((err.cause as Error).message).to.equal('kaput');
      expect(log).to.deep.equal(['good']);
    });

    it('passes a KernelError through unchanged, adding the plugin name', async () => {
      const bus = new HookBus();
      bus.tap('strict', series, () => {
        throw new KernelError('E_FORBIDDEN', 'no');
      });
      const err = await rejection(bus.run(series, []));
      expect(err.code).to.equal('E_FORBIDDEN');
      expect(err.plugin).to.equal('strict');
    });
  });

  describe('waterfall', () => {
    it('feeds each return value to the next tap; undefined means unchanged', async () => {
      const bus = new HookBus();
      bus.tap('double', waterfall, (v) => ({ n: v.n * 2 }));
      bus.tap('abstain', waterfall, () => undefined);
      bus.tap('plus', waterfall, (v, by) => ({ n: v.n + by.length }));
      expect(await bus.run(waterfall, { n: 5 }, 'abc')).to.deep.equal({ n: 13 });
    });

    it('returns the input when nobody taps', async () => {
      const input = { n: 1 };
      expect(await new HookBus().run(waterfall, input, '')).to.equal(input);
    });

    it('in development mode a tap that mutates its input fails loudly, leaving the caller object intact', async () => {
      const bus = new HookBus(true);
      bus.tap('mutator', waterfall, (v) => {
        v.n = 99;
      });
      const input = { n: 1 };
      const err = await rejection(bus.run(waterfall, input, ''));
      expect(err.code).to.equal('E_PLUGIN_FAILED');
      expect(err.plugin).to.equal('mutator');
      expect(input.n).to.equal(1);
    });
  });

  describe('bail', () => {
    it('returns the first non-undefined result and runs no later tap', async () => {
      const bus = new HookBus();
      const seen: string[] = [];
      bus.tap('abstains', bail, () => {
        seen.push('abstains');
      });
      bus.tap('decides', bail, (n) => {
        seen.push('decides');
        return `n=${n}`;
      });
      bus.tap('skipped', bail, () => {
        seen.push('skipped');
        return 'late';
      });
      expect(await bus.run(bail, 7)).to.equal('n=7');
      expect(seen).to.deep.equal(['abstains', 'decides']);
    });

    it('returns undefined when every tap abstains', async () => {
      const bus = new HookBus();
      bus.tap('a', bail, () => undefined);
      expect(await bus.run(bail, 1)).to.equal(undefined);
    });
  });

  describe('collect', () => {
    it('flattens items and arrays in tap order, skipping undefined, even when taps finish out of order', async () => {
      const bus = new HookBus();
      bus.tap('slow', collect, async (s) => {
        await new Promise((r) => setTimeout(r, 20));
        return `${s}-slow`;
      });
      bus.tap('many', collect, () => ['x', 'y']);
      bus.tap('none', collect, () => undefined);
      bus.tap('first', collect, () => 'first', { stage: Stage.EARLY });
      expect(await bus.run(collect, 'p')).to.deep.equal(['first', 'p-slow', 'x', 'y']);
    });

    it('keeps who contributed each item', async () => {
      const bus = new HookBus();
      bus.tap('one', collect, () => 'a');
      bus.tap('two', collect, () => ['b', 'c']);
      expect(await bus.collectAttributed(collect, '')).to.deep.equal([
        { plugin: 'one', item: 'a' },
        { plugin: 'two', item: 'b' },
        { plugin: 'two', item: 'c' },
      ]);
    });

    it('fails on a rejecting tap, attributed to its plugin', async () => {
      const bus = new HookBus();
      bus.tap('ok', collect, () => 'a');
      bus.tap('bad', collect, async () => {
        throw new TypeError('nope');
      });
      const err = await rejection(bus.run(collect, ''));
      expect(err.plugin).to.equal('bad');
      expect(err.code).to.equal('E_PLUGIN_FAILED');
    });
  });

  it('refuses taps after sealing', () => {
    const bus = new HookBus();
    bus.seal();
    expect(() => bus.tap('late', series, () => undefined))
      .to.throw(KernelError)
      .with.property('code', 'E_REGISTRY_SEALED');
  });

  it('refuses using one hook id as two kinds', () => {
    const bus = new HookBus();
    bus.tap('a', series, () => undefined);
    const imposter = defineHook.bail<string, [string[]]>('t.series');
    expect(() => bus.tap('b', imposter, () => 'x'))
      .to.throw(KernelError)
      .with.property('code', 'E_HOOK_KIND');
  });

  it('gives plugins a tap-only facade carrying their name', async () => {
    const bus = new HookBus();
    const facade = bus.tapperFor('named');
    expect(Object.keys(facade)).to.deep.equal(['tap']);
    facade.tap(bail, () => 'hi');
    expect(bus.tappers(bail)).to.deep.equal(['named']);
  });
});
