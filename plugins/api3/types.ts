/** The APIv3 engine's contract: what bindings (rest-api3) and plugins call. */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { Cradle, Principal } from '../../kernel';

export interface Api3Request {
  entity: string;
  action: string;
  params: Record<string, unknown>;
  principal: Principal;
  scope: AwilixContainer<Cradle>;
  /** Optional: the ambient transaction (in-process calls from a handler). */
  db?: Knex;
  /** Optional: false skips authorization (trusted in-process code only). Default true. */
  checkPermissions?: boolean;
}

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
