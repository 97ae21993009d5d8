/**
 * The Awilix container: root singletons (config, log, db, hooks, actions, kernel, plugin services)
 * and one scope per request. Strict mode makes a singleton that depends on a scoped name an error,
 * so one request's data can never leak into the next.
 */
import { asFunction, asValue, createContainer, InjectionMode, Lifetime, type AwilixContainer } from 'awilix';
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

/** A request scope with its id and caller. Whoever creates it must `await scope.dispose()`. */
export function createRequestScope(
  root: AwilixContainer<Cradle>,
  requestId: string,
  principal: Principal,
): AwilixContainer<Cradle> {
  const scope = root.createScope<Cradle>();
  scope.register({ requestId: asValue(requestId), principal: asValue(principal) });
  return scope;
}
