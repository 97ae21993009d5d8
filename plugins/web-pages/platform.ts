/**
 * The one place the page plugins reach the kernel: calling actions as the page's caller, asking
 * whether the caller may run one, and listing the action registry. Every page goes through these,
 * so the pages obey exactly the rules the APIs obey.
 */
import type { AwilixContainer } from 'awilix';
import { holds, type ActionListing, type Cradle, type Principal } from '../../kernel';

export type Scope = AwilixContainer<Cradle>;

/** Runs an action as `principal`, with every permission check, in the request's scope. */
export function callAs(
  scope: Scope,
  principal: Principal,
  version: 3 | 4,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): Promise<unknown> {
  return scope.cradle.api.call({ version, entity, action, params, principal, scope });
}

export function canRun(scope: Scope, principal: Principal, version: 3 | 4, entity: string, action: string) {
  return scope.cradle.api.can(entity, action, principal, { version });
}

/** The action registry's catalogue for one API version (generic actions expanded per entity). */
export function listActions(scope: Scope, version: 3 | 4): ActionListing[] {
  return scope.cradle.api.actions({ version });
}

/** Whether the principal holds a permission (`'*'` holds all). */
export const holdsPermission = (principal: Principal | undefined, permission: string): boolean =>
  !!principal && holds(permission, principal.permissions);

/** The rows of an APIv4 result, whether the action answered with the envelope or a bare list. */
export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>;
  const values = (result as { values?: unknown } | null)?.values;
  return Array.isArray(values) ? (values as Array<Record<string, unknown>>) : [];
}
