/** The APIv4 engine's contract: what bindings (rest-api4) and plugins call. */
import type { EngineRequest } from '../entity-core';

export type Row = Record<string, unknown>;

/** What every APIv4 action returns (the binding adds `debug` and applies `index`). */
export interface Api4Result {
  entity: string;
  action: string;
  version: 4;
  values: Row[];
  /** `countMatched` when it was computed, else the number of values. */
  count: number;
  countFetched: number;
  /** Only when computed (`select: ['row_count']`). */
  countMatched?: number;
}

/** The engine request shared by both API versions (entity-core). */
export type Api4Request = EngineRequest;

export interface Api4Service {
  /** Runs one APIv4 call; errors are thrown as KernelError (403 messages in the reference's wording). */
  call(req: Api4Request): Promise<Api4Result>;
}

declare module '../../kernel/types' {
  interface Cradle {
    api4: Api4Service;
  }
}
