/**
 * The APIv3 control params (§3.3: options and their legacy spellings, flags, return, sort) as the JSON
 * Schema of the generic actions, so the pipeline's validate step checks them like APIv4's params. Field
 * params stay open: the reference ignores keys it does not know, and filters are checked against metadata
 * when the query is planned. A failing control param is worded as the reference words it.
 */
import { KernelError } from '../../kernel';

/** A row count: a non-negative integer, digits in a string, or empty / null / false (no limit). */
const count = {
  anyOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^\\s*\\d*\\s*$' },
    { type: 'null' },
    { const: false },
  ],
};
const flag = { type: ['boolean', 'integer', 'string', 'null'] };
const fieldList = { type: ['string', 'array', 'object', 'null'] };

export const CONTROL_PARAMS_SCHEMA = {
  type: 'object',
  properties: {
    options: {
      type: ['object', 'array', 'string', 'null'],
      properties: { limit: count, offset: count, sort: fieldList, is_count: flag },
    },
    'option.limit': count,
    option_limit: count,
    rowCount: count,
    'option.offset': count,
    option_offset: count,
    offset: count,
    sequential: flag,
    check_permissions: flag,
    debug: flag,
    prettyprint: flag,
    version: { type: ['integer', 'string'] },
    return: fieldList,
    sort: fieldList,
  },
};

const ROW_COUNTS: Record<string, 'limit' | 'offset'> = {
  'options.limit': 'limit',
  'option.limit': 'limit',
  option_limit: 'limit',
  rowCount: 'limit',
  'options.offset': 'offset',
  'option.offset': 'offset',
  option_offset: 'offset',
  offset: 'offset',
};

/**
 * The reference's wording for a control param the validate step refused (`limit is not a valid
 * integer`, error_code 2001), or undefined to keep the pipeline's own message.
 */
export function controlParamError(err: KernelError): KernelError | undefined {
  if (err.code !== 'E_INVALID_PARAMS') return undefined;
  const paths = err.details?.paths;
  if (!Array.isArray(paths)) return undefined;
  const name = paths.map((p) => ROW_COUNTS[String(p)]).find(Boolean);
  if (!name) return undefined;
  return new KernelError('E_INVALID_PARAMS', `${name} is not a valid integer`, {
    details: { error_field: name, type: 'integer', error_code: 2001 },
  });
}
