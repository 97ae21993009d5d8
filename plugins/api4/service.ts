/**
 * The `api4` service: one APIv4 call as `civicrm_api4()` runs it — `checkPermissions` (false lifts
 * authorization and row access, for trusted code), the kernel pipeline, and the reference's wording of
 * an entity-level refusal (`Authorization failed: CRM APIv4 (<Entity>::<action>)`).
 */
import { KernelError, isKernelError, type Api } from '../../kernel';
import type { Api4Request, Api4Result, Api4Service } from './types';

export function createApi4Service(kernel: { call: Api['call'] }): Api4Service {
  return {
    async call(input: Api4Request): Promise<Api4Result> {
      const params = { ...(input.params ?? {}) };
      // The wire's `checkPermissions: false` (in-process only; rest-api4 forces it on) is the trust flag.
      const trusted = input.trusted ?? params.checkPermissions === false;
      params.checkPermissions = !trusted;
      const principal = input.principal;
      try {
        const result = await kernel.call({
          version: 4,
          entity: input.entity,
          action: input.action,
          params,
          principal,
          scope: input.scope,
          db: input.db,
          trusted,
        });
        return asResult(result, input.entity, input.action);
      } catch (err) {
        throw toApi4Error(err);
      }
    },
  };
}

/** Entity-level refusals from the pipeline get the reference's message; record-level ones say `ACL check failed`. */
export function toApi4Error(err: unknown): unknown {
  if (!isKernelError(err)) return err;
  const details = err.details ?? {};
  if (
    (err.code === 'E_FORBIDDEN' || err.code === 'E_UNAUTHENTICATED') &&
    !details.acl &&
    typeof details.entity === 'string' &&
    typeof details.action === 'string' &&
    !err.message.startsWith('Authorization failed')
  ) {
    return new KernelError(err.code, `Authorization failed: CRM APIv4 (${details.entity}::${details.action})`, {
      details: { ...details, reason: err.message },
      cause: err,
    });
  }
  return err;
}

/**
 * Entity-specific actions (e.g. the OAuth ones) may return a list, one record or a scalar instead of a
 * full result: wrap it so every caller sees the same shape.
 */
export function asResult(r: unknown, entity: string, action: string): Api4Result {
  if (
    r &&
    typeof r === 'object' &&
    !Array.isArray(r) &&
    (r as Api4Result).version === 4 &&
    Array.isArray((r as Api4Result).values)
  )
    return r as Api4Result;
  const values = (Array.isArray(r) ? r : r === undefined || r === null ? [] : [r]) as Api4Result['values'];
  return { entity, action, version: 4, values, count: values.length, countFetched: values.length };
}
