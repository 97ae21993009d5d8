/** The body of an APIv4 REST call as the rest-api4 binding reads it (docs/api4.md): `params`, `index`, `format`. */
import type { Schema } from './schema';

/** Schemas every call's body names, kept once in `components.schemas` and referenced. */
export const API4_BODY_SCHEMAS = {
  /** `index`: results keyed by a field, or one field's value by another. */
  Api4Index: {
    description: 'Key the values by a field (`"id"`), or map one field to another (`{"id": "display_name"}`)',
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
  },
  /** `format` of a get: the rows as CSV; a get without a limit is streamed in keyset pages either way. */
  Api4Format: { enum: ['json', 'csv'], default: 'json', description: 'csv: the selected fields as CSV rows' },
};
const INDEX = { $ref: '#/components/schemas/Api4Index' };
const FORMAT = { $ref: '#/components/schemas/Api4Format' };

/** The CSV answer of a get with `format=csv`. */
export const CSV_CONTENT = {
  'text/csv': {
    schema: {
      type: 'string',
      description:
        'A header of the selected fields, then one row per record; cells a spreadsheet would run are neutralised',
    },
  },
};

/** The form body of one call; `csv` for a get of an entity with rows (the only action `format` applies to). */
export function api4RequestBody(params: Schema, csv: boolean): Schema {
  return {
    required: false,
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: { params, index: INDEX, ...(csv ? { format: FORMAT } : {}) },
          additionalProperties: false,
        },
        encoding: { params: { contentType: 'application/json' }, index: { contentType: 'application/json' } },
      },
    },
  };
}
