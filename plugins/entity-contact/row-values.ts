/** Small readers of API values shared by the contact and block lifecycles. */
export type Row = Record<string, unknown>;

/** A value was given: not undefined, null or the empty string. */
export const has = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The API's spellings of true (`1`, `'1'`, `'true'`, `true`). */
export const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';
