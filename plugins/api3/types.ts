/** The APIv3 engine's contract: what bindings (rest-api3) and plugins call. */
import type { EngineRequest } from '../entity-core';

/** The engine request shared by both API versions (entity-core). */
export type Api3Request = EngineRequest;

export interface Api3Service {
  /**
   * Runs one APIv3 call like `civicrm_api3()` does: the envelope for most actions, the bare record for
   * getsingle, a scalar for getcount/getvalue. Errors are thrown as KernelError with the APIv3 extras in
   * `details` (wire order), `details.error_code`, and `details.api3Shape = 'returned'` for errors the
   * reference returns instead of throwing (rendered without error_code/entity/action).
   */
  call(req: Api3Request): Promise<unknown>;
}

/** The APIv3 success envelope (key order as on the wire, §2.1). */
export interface Api3Envelope {
  is_error: 0;
  version: 3;
  count: number;
  id?: number;
  values: unknown;
  [extra: string]: unknown;
}

declare module '../../kernel/types' {
  interface Cradle {
    api3: Api3Service;
  }
}
