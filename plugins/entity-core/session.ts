/** Who calls the entity service, how its refusals are worded, and the options of a write. */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { Cradle, Principal } from '../../kernel';
import type { CompiledEntity } from './types';

type Row = Record<string, unknown>;

/** Who calls, in which transaction, and whether the caller is trusted in-process code. */
export interface EntitySession {
  db: Knex;
  principal: Principal;
  /** Trusted in-process code: no row access, no join permission checks. The principal stays who it is. */
  trusted?: boolean;
  /** The request scope (join permission checks ask `kernel.can` through it). */
  scope?: AwilixContainer<Cradle>;
  /** The API version reading, when one says so (beforeGet taps that follow one version's wire rules). */
  api?: 3 | 4;
}

/** How a translator wants the service's refusals worded (each API has its own shape). */
export interface SaveErrors {
  /** Mandatory fields missing on create. */
  mandatory?(fields: string[], entity: CompiledEntity): Error;
  /** Row access refused the write. */
  access?(): Error;
}

export interface SaveOptions {
  /** The stored row before an update (field names), or null/absent on create. */
  existing?: Row | null;
  /** Params as the caller sent them (lifecycle code reads extras such as Contact's `email`). */
  params?: Row;
  errors?: SaveErrors;
  /** Read the row again when an afterSave hook sent SQL (default true; APIv4 reads its own answer anyway). */
  reread?: boolean;
}

/** A value the caller gave: not undefined, null or the empty string (the API's "not set"). */
export const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The API's spellings of true (`1`, `'1'`, `'true'`, `true`). */
export const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

/** Options of a batch of creates ({@link EntityService.saveMany}). */
export interface BatchOptions {
  /** Each record's params as the caller sent them (defaults to the inputs). */
  params?: Row[];
  errors?: SaveErrors;
}
