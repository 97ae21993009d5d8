/** Small readers of API values shared by the contact and block lifecycles. */
export type Row = Record<string, unknown>;

/** `has`: a value was given (entity-core's `present`); `truthy`: the API's spellings of true. */
export { present as has, truthy } from '../entity-core';
