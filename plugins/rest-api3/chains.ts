/**
 * The chained calls of an APIv3 request, as the REST binding sees them before the API runs: their actions
 * (for the destructive-GET rule, which holds for every call of a chain) and the request limits on them.
 */
import { checkDepth, limitExceeded, type Limits } from '../../host';

type Obj = Record<string, unknown>;

/** Actions a GET may run (`CRM_Utils_REST::process`). */
export const getSafe = (action: string) => action.slice(0, 3).toLowerCase() === 'get' || action === 'check';

/**
 * The actions of every chained call in `params` (`api.<Entity>[.<action>[.<suffix>]]`, `api_…`, nested
 * ones too, lists of specs included); a chain without an action inherits its parent's.
 */
export function chainedActions(params: Obj, action: string): string[] {
  const out: string[] = [];
  const stack: Array<[Obj, string]> = [[params, action]];
  while (stack.length) {
    const [current, parent] = stack.pop()!;
    for (const key of Object.keys(current)) {
      const value = current[key];
      if (!/^api[._]/.test(key) || key === 'api_key') continue;
      if (!(value !== null && typeof value === 'object') && value !== 1 && value !== '1') continue;
      const chainAction = key.slice(4).split(key[3])[1] || parent;
      for (const spec of Array.isArray(value) ? value : [value]) {
        out.push(chainAction);
        if (spec && typeof spec === 'object' && !Array.isArray(spec)) stack.push([spec as Obj, chainAction]);
      }
    }
  }
  return out;
}

/**
 * Applies `limits.nestingDepth` and `limits.chainedCalls` to one call's params and returns the actions of
 * its chained calls; `E_LIMIT_EXCEEDED` beyond either.
 */
export function checkedChains(params: Obj, action: string, limits: Limits): string[] {
  checkDepth(params, limits.nestingDepth);
  const chained = chainedActions(params, action);
  if (chained.length > limits.chainedCalls)
    throw limitExceeded(
      `${chained.length} chained calls in one call; at most ${limits.chainedCalls} (limits.chainedCalls)`,
      'chainedCalls',
      limits.chainedCalls,
    );
  return chained;
}

/** `limits.chainedCalls` also bounds the calls of one batch (`entity=api3&action=call`). */
export function checkBatch(calls: object, limits: Limits): void {
  const max = limits.chainedCalls;
  if (Object.keys(calls).length > max)
    throw limitExceeded(`More than ${max} calls in one batch (limits.chainedCalls)`, 'chainedCalls', max);
}
