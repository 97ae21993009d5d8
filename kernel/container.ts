/**
 * The Awilix container: root singletons (config, log, db, hooks, actions, kernel, plugin services)
 * and one scope per request. Strict mode makes a singleton that depends on a scoped name an error,
 * so one request's data can never leak into the next.
 */
import {
  asFunction,
  asValue,
  createContainer,
  InjectionMode,
  Lifetime,
  type AwilixContainer,
  type ResolveOptions,
  type Resolver,
} from 'awilix';
import { KernelError } from './errors';
import type { Cradle, Principal } from './types';

export type Factory<T> = (cradle: Cradle) => T;

/** What a plugin may do with the container: register the services it declared, and resolve. */
export interface ServiceRegistrar {
  /** One instance for the process; `dispose` runs at close. */
  singleton<T>(name: string, factory: Factory<T>, opts?: { dispose?: (value: T) => unknown }): void;
  /** One instance per request scope; `dispose` runs when the request ends. */
  scoped<T>(name: string, factory: Factory<T>, opts?: { dispose?: (value: T) => unknown }): void;
  value<T>(name: string, value: T): void;
  /** Resolves a service registered by this plugin or one it depends on. */
  resolve<T = unknown>(name: string): T;
}

export function createRootContainer(): AwilixContainer<Cradle> {
  return createContainer<Cradle>({ injectionMode: InjectionMode.PROXY, strict: true });
}

/** A registrar bound to one plugin: only the names in its manifest's `provides.services`, each once. */
export function serviceRegistrarFor(
  container: AwilixContainer<Cradle>,
  plugin: string,
  declared: readonly string[],
): ServiceRegistrar {
  const check = (name: string) => {
    if (!declared.includes(name)) {
      throw new KernelError(
        'E_SERVICE_UNDECLARED',
        `Plugin ${plugin} registered service '${name}' but its manifest's provides.services does not list it`,
        { plugin },
      );
    }
    if (container.hasRegistration(name)) {
      throw new KernelError(
        'E_SERVICE_UNDECLARED',
        `Plugin ${plugin} registered service '${name}', which is already registered`,
        { plugin },
      );
    }
  };
  return {
    singleton(name, factory, opts) {
      check(name);
      container.register(
        name,
        asFunction(factory as Factory<unknown>, { lifetime: Lifetime.SINGLETON, dispose: opts?.dispose as never }),
      );
    },
    scoped(name, factory, opts) {
      check(name);
      container.register(
        name,
        asFunction(factory as Factory<unknown>, { lifetime: Lifetime.SCOPED, dispose: opts?.dispose as never }),
      );
    },
    value(name, value) {
      check(name);
      container.register(name, asValue(value));
    },
    resolve: <T>(name: string) => container.resolve(name) as T,
  };
}

/**
 * A request scope with its id and caller. Whoever creates it must `await scope.dispose()`.
 *
 * The Awilix scope itself is made when first needed: most API calls resolve only process-wide services (the
 * `api`, `config`, a plugin's singleton), which the scope would hand over from the root anyway, and making and
 * disposing a scope cost ~15–20 µs of a ~350 µs light read over HTTP (docs/performance.md). So until then:
 * - a name registered for this request (`requestId`, `principal`, any `register` made on the scope), or one
 *   the root registers as scoped or transient, makes the scope and is resolved there, as Awilix would;
 * - a root singleton or value is resolved from the root (the registrar offers only these three kinds, and the
 *   kernel registers values: no alias, whose answer would depend on the container asked);
 * - `register` is queued and replayed in order when the scope is made; `dispose` of a scope never made has
 *   nothing to dispose; anything else (`createScope`, `build`, `cache`…) makes the scope and is its own.
 */
export function createRequestScope(
  root: AwilixContainer<Cradle>,
  requestId: string,
  principal: Principal,
): AwilixContainer<Cradle> {
  let scope: AwilixContainer<Cradle> | undefined;
  const pending: Array<Record<string | symbol, Resolver<unknown>>> = [
    { requestId: asValue(requestId), principal: asValue(principal) },
  ];
  /** Whether the request registered `name` itself (then only the scope answers it). */
  const registeredHere = (name: string | symbol) => pending.some((registrations) => Object.hasOwn(registrations, name));
  const made = (): AwilixContainer<Cradle> => {
    if (!scope) {
      scope = root.createScope<Cradle>();
      for (const registrations of pending) scope.register(registrations);
    }
    return scope;
  };
  /** The root's answer for `name` when the scope would give the same one; undefined when the scope must answer. */
  const fromRoot = (name: string | symbol): { value: unknown } | undefined => {
    if (scope || registeredHere(name)) return undefined;
    const registration = root.getRegistration(name) as (Resolver<unknown> & { isLeakSafe?: boolean }) | null;
    if (!registration) return undefined;
    const lifetime = (registration as { lifetime?: string }).lifetime;
    if (lifetime === Lifetime.SINGLETON || (lifetime === undefined && registration.isLeakSafe))
      return { value: root.resolve(name) };
    return undefined;
  };
  const resolve = (name: string | symbol, options?: ResolveOptions): unknown =>
    fromRoot(name)?.value ?? made().resolve(name, options);
  const cradle = new Proxy({} as Cradle, {
    get: (_, name) => {
      const served = fromRoot(name);
      return served ? served.value : (made().cradle as unknown as Record<string | symbol, unknown>)[name];
    },
    // As the scope's own cradle answers `in` (registered here or above), without resolving anything.
    has: (_, name) => (scope ? Reflect.has(scope.cradle, name) : registeredHere(name) || root.hasRegistration(name)),
  });
  const register = (name: string | symbol | Record<string, Resolver<unknown>>, resolver?: Resolver<unknown>) => {
    const registrations = typeof name === 'object' ? name : { [name]: resolver! };
    if (scope) scope.register(registrations);
    else pending.push(registrations);
    return lazy;
  };
  const dispose = async () => {
    if (scope) await scope.dispose();
  };
  const lazy: AwilixContainer<Cradle> = new Proxy({} as AwilixContainer<Cradle>, {
    get(_, prop) {
      if (prop === 'register') return register;
      if (prop === 'dispose') return dispose;
      if (prop === 'resolve') return resolve;
      if (prop === 'cradle') return scope ? scope.cradle : cradle;
      const real = made();
      const value = Reflect.get(real, prop, real) as unknown;
      return typeof value === 'function' ? value.bind(real) : value;
    },
    has: (_, prop) => Reflect.has(made(), prop),
  });
  return lazy;
}
