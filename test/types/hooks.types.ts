/**
 * Compile-only assertions, checked by `tsc --noEmit` (never run): the hook types catch the mistakes
 * plugin authors make.
 */
import { defineHook, HookBus, type ActionDefinition } from '../../kernel';

const bus = new HookBus();
const wf = defineHook.waterfall<{ n: number }, [string]>('types.wf');
const bail = defineHook.bail<'yes', [number]>('types.bail');
const collect = defineHook.collect<string, []>('types.collect');
const series = defineHook.series<[number]>('types.series');

bus.tap('p', wf, (v, s) => ({ n: v.n + s.length }));
bus.tap('p', wf, () => undefined);
// @ts-expect-error a waterfall tap must return the value type (or nothing)
bus.tap('p', wf, () => ({ m: 1 }));
// @ts-expect-error waterfall extra args are typed
bus.tap('p', wf, (_v, _s: number) => undefined);

bus.tap('p', bail, (n) => (n > 0 ? 'yes' : undefined));
// @ts-expect-error a bail tap returns the declared result type
bus.tap('p', bail, () => 'no');

bus.tap('p', collect, () => ['a', 'b']);
bus.tap('p', collect, () => 'a');
// @ts-expect-error collect items are typed
bus.tap('p', collect, () => 1);

// @ts-expect-error run takes the hook's arguments
void bus.run(series, 'not a number');

async function results() {
  const decided = await bus.run(bail, 1);
  // @ts-expect-error a bail hook may end with nobody deciding
  const sure: 'yes' = decided;
  const items: string[] = await bus.run(collect);
  const value: { n: number } = await bus.run(wf, { n: 1 }, 'x');
  return [sure, items, value];
}
void results;

// @ts-expect-error an action needs a permission
const noPermission: ActionDefinition = {
  version: 3,
  entity: 'X',
  action: 'y',
  description: '',
  params: {},
  handler: () => 1,
};
void noPermission;
