/**
 * The hook bus: four kinds of hook (series, waterfall, bail, collect), typed references,
 * named taps ordered by `stage`, and errors attributed to the plugin whose tap threw.
 */
import { KernelError, isKernelError } from './errors';

export type HookKind = 'series' | 'waterfall' | 'bail' | 'collect';

/** A typed handle on a hook. `Args` are what `run` takes, `Out` what it returns. */
export interface HookRef<K extends HookKind, Args extends unknown[], Out> {
  readonly id: string;
  readonly kind: K;
  /** One line for docs/hooks.md. */
  readonly description?: string;
  /** Phantom: carries the types, never read at run time. */
  readonly __types?: (args: Args) => Out;
}

type Awaitable<T> = T | Promise<T>;
type Item<O> = O extends Array<infer T> ? T : never;

/** The function a plugin taps, by hook kind. */
export type TapFn<K extends HookKind, A extends unknown[], O> = K extends 'series'
  ? (...args: A) => Awaitable<void>
  : K extends 'waterfall'
    ? (...args: A) => Awaitable<O | undefined | void>
    : K extends 'bail'
      ? (...args: A) => Awaitable<O | undefined | void>
      : K extends 'collect'
        ? (...args: A) => Awaitable<Item<O> | Item<O>[] | undefined | void>
        : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHookRef = HookRef<HookKind, any, any>;
/** The tap function for a hook ref; its types come from the ref alone, never inferred from the tap. */
export type TapFnOf<R> = R extends HookRef<infer K, infer A, infer O> ? TapFn<K, A, O> : never;

export interface TapOptions {
  /** Lower runs first; see {@link Stage}. Default `Stage.NORMAL`. */
  stage?: number;
  /** Run before the taps of these plugins, whatever their stage. */
  before?: string | string[];
}

/** Named stages; any number works, these keep intent readable. */
export const Stage = { EARLY: -100, NORMAL: 0, LATE: 100 } as const;

/**
 * Declares hooks. The owner exports the ref; plugins tap it, the owner runs it.
 * @example export const oauthProviders = defineHook.collect<ProviderRecord, []>('oauthProviders', 'Contribute OAuth providers');
 */
export const defineHook = {
  series: <A extends unknown[]>(id: string, description?: string) =>
    ({ id, kind: 'series', description }) as HookRef<'series', A, void>,
  waterfall: <V, A extends unknown[] = []>(id: string, description?: string) =>
    ({ id, kind: 'waterfall', description }) as HookRef<'waterfall', [V, ...A], V>,
  bail: <R, A extends unknown[]>(id: string, description?: string) =>
    ({ id, kind: 'bail', description }) as HookRef<'bail', A, R | undefined>,
  collect: <T, A extends unknown[]>(id: string, description?: string) =>
    ({ id, kind: 'collect', description }) as HookRef<'collect', A, T[]>,
};

interface Tap {
  plugin: string;
  fn: (...args: unknown[]) => unknown;
  stage: number;
  before: string[];
  seq: number;
}

/** What a plugin may do with the bus: tap only (its name is filled in for it). */
export interface HookTapper {
  tap<R extends AnyHookRef>(ref: R, fn: TapFnOf<R>, opts?: TapOptions): void;
}

export class HookBus {
  private taps = new Map<string, Tap[]>();
  private kinds = new Map<string, HookKind>();
  private refs = new Map<string, HookRef<HookKind, unknown[], unknown>>();
  private seq = 0;
  private sealed = false;

  /** @param freezeInputs freeze waterfall inputs so a tap that mutates instead of returning fails loudly (dev/test). */
  constructor(private readonly freezeInputs = false) {}

  tap<R extends AnyHookRef>(plugin: string, ref: R, fn: TapFnOf<R>, opts: TapOptions = {}): void {
    if (this.sealed)
      throw new KernelError('E_REGISTRY_SEALED', `Plugin ${plugin} tapped hook ${ref.id} after boot sealed the bus`, {
        plugin,
      });
    if (typeof fn !== 'function')
      throw new KernelError('E_HOOK_KIND', `Plugin ${plugin} tapped hook ${ref.id} with a non-function`, { plugin });
    this.checkKind(ref, plugin);
    const list = this.taps.get(ref.id) ?? [];
    const before = opts.before === undefined ? [] : ([] as string[]).concat(opts.before);
    list.push({ plugin, fn: fn as Tap['fn'], stage: opts.stage ?? Stage.NORMAL, before, seq: this.seq++ });
    this.taps.set(ref.id, order(list));
  }

  /** A tap-only facade bound to one plugin's name. */
  tapperFor(plugin: string): HookTapper {
    return { tap: (ref, fn, opts) => this.tap(plugin, ref, fn, opts) };
  }

  seal(): void {
    this.sealed = true;
  }

  /** The plugins tapping a hook, in run order (for docs and diagnostics). */
  tappers(ref: HookRef<HookKind, never, unknown>): string[] {
    return (this.taps.get(ref.id) ?? []).map((t) => t.plugin);
  }

  /** Every hook seen so far (tapped or run), for docs/hooks.md. */
  knownHooks(): HookRef<HookKind, unknown[], unknown>[] {
    return [...this.refs.values()];
  }

  async run<K extends HookKind, A extends unknown[], O>(ref: HookRef<K, A, O>, ...args: A): Promise<O> {
    this.checkKind(ref);
    const taps = this.taps.get(ref.id) ?? [];
    // A tap that answers synchronously is not awaited: most taps do, and a request runs ~15 hooks.
    switch (ref.kind) {
      case 'series':
        for (const tap of taps) {
          const out = call(tap, ref, args);
          if (isThenable(out)) await out;
        }
        return undefined as O;
      case 'waterfall': {
        let value = args[0];
        for (const tap of taps) {
          // A frozen shallow copy: a tap that mutates instead of returning fails loudly, and the
          // caller's own object stays writable.
          const input =
            this.freezeInputs && isPlain(value)
              ? Object.freeze(Array.isArray(value) ? [...value] : { ...value })
              : value;
          let out = call(tap, ref, [input, ...args.slice(1)]);
          if (isThenable(out)) out = await out;
          if (out !== undefined && out !== input) value = out;
        }
        return value as O;
      }
      case 'bail':
        for (const tap of taps) {
          let out = call(tap, ref, args);
          if (isThenable(out)) out = await out;
          if (out !== undefined) return out as O;
        }
        return undefined as O;
      case 'collect': {
        // Taps are independent, so they run concurrently; results keep tap order. Only answers that are
        // promises are waited for (most taps of a per-read hook answer at once, for other entities).
        const called = taps.map((t) => call(t, ref, args));
        const outs = called.some(isThenable) ? await Promise.all(called) : called;
        return outs.flatMap((o) => (o === undefined ? [] : Array.isArray(o) ? o : [o])) as O;
      }
    }
    throw new KernelError('E_HOOK_KIND', `Hook ${ref.id} has unknown kind ${String(ref.kind)}`);
  }

  /** Runs a collect hook keeping who contributed each item, so keyed registries can name both sides of a clash. */
  async collectAttributed<A extends unknown[], T>(
    ref: HookRef<'collect', A, T[]>,
    ...args: A
  ): Promise<Array<{ plugin: string; item: T }>> {
    this.checkKind(ref);
    const taps = this.taps.get(ref.id) ?? [];
    const outs = await Promise.all(taps.map((t) => call(t, ref, args)));
    return outs.flatMap((o, i) =>
      o === undefined ? [] : ([] as T[]).concat(o as T | T[]).map((item) => ({ plugin: taps[i].plugin, item })),
    );
  }

  private checkKind(ref: HookRef<HookKind, never, unknown>, plugin?: string): void {
    const known = this.kinds.get(ref.id);
    if (known === ref.kind) return; // seen before: every run of a hook passes here
    if (known) {
      throw new KernelError(
        'E_HOOK_KIND',
        `Hook ${ref.id} is a ${known} hook but was used as ${ref.kind}${plugin ? ` by plugin ${plugin}` : ''}`,
        { plugin },
      );
    }
    this.kinds.set(ref.id, ref.kind);
    if (!this.refs.has(ref.id)) this.refs.set(ref.id, ref as HookRef<HookKind, unknown[], unknown>);
  }
}

function isPlain(v: unknown): v is object {
  return Array.isArray(v) || (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** Runs one tap: its value, or a promise of it when the tap is async; a failure names the plugin. */
function call(tap: Tap, ref: HookRef<HookKind, never, unknown>, args: unknown[]): unknown {
  let out: unknown;
  try {
    out = tap.fn(...args);
  } catch (err) {
    throw tapFailure(tap, ref, err);
  }
  return isThenable(out)
    ? Promise.resolve(out).catch((err: unknown) => {
        throw tapFailure(tap, ref, err);
      })
    : out;
}

function tapFailure(tap: Tap, ref: HookRef<HookKind, never, unknown>, err: unknown): KernelError {
  if (isKernelError(err)) {
    err.plugin ??= tap.plugin;
    return err;
  }
  return new KernelError(
    'E_PLUGIN_FAILED',
    `Plugin ${tap.plugin} failed in hook ${ref.id}: ${(err as Error)?.message ?? String(err)}`,
    {
      plugin: tap.plugin,
      details: { plugin: tap.plugin, hook: ref.id },
      cause: err,
    },
  );
}

/** Stage order, ties by registration; then each tap with `before` moves ahead of the first tap it names. */
function order(list: Tap[]): Tap[] {
  const sorted = [...list].sort((a, b) => a.stage - b.stage || a.seq - b.seq);
  for (const t of sorted.filter((x) => x.before.length)) {
    const from = sorted.indexOf(t);
    const target = sorted.findIndex((x) => t.before.includes(x.plugin));
    if (target >= 0 && target < from) {
      sorted.splice(from, 1);
      sorted.splice(target, 0, t);
    }
  }
  return sorted;
}
