/**
 * JSON Schema pieces for the OpenAPI document: the ajv params schemas (draft-07 style) carried over to
 * the 2020-12 dialect OpenAPI 3.1 uses, and row schemas made from entity metadata.
 */
import type { CompiledEntity, FieldDef } from '../entity-core';

export type Schema = Record<string, unknown>;

/** Draft-07 → 2020-12: tuple `items` arrays become `prefixItems`; everything else carries over. */
export function toOpenApiSchema(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(toOpenApiSchema);
  if (!input || typeof input !== 'object') return input;
  const out: Schema = {};
  for (const [key, value] of Object.entries(input as Schema)) {
    if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map(toOpenApiSchema);
    else if (key === 'additionalItems') out.items = toOpenApiSchema(value);
    else if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions')
      out[key] = Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, toOpenApiSchema(v)]));
    else if (key === '$id' || key === '$schema') continue;
    else out[key] = typeof value === 'object' && value !== null ? toOpenApiSchema(value) : value;
  }
  return out;
}

/** The JSON type of a field's value as the APIs answer it. */
export function fieldSchema(field: FieldDef): Schema {
  const base: Schema = (() => {
    switch (field.type as string) {
      case 'Int':
        return { type: 'integer' };
      case 'Float':
        return { type: 'number' };
      case 'Boolean':
        return { type: 'boolean' };
      case 'Date':
        return { type: 'string', format: 'date' };
      case 'Timestamp':
        return { type: 'string' };
      case 'Money':
        // An exact decimal: a string, or a number only where it is exact.
        return { type: ['string', 'number'] };
      case 'Json':
        return {};
      case 'Email':
        return { type: 'string', format: 'email' };
      default:
        return { type: 'string' };
    }
  })();
  const schema: Schema = {
    ...base,
    title: field.title,
    ...(field.description ? { description: field.description } : {}),
    ...(field.maxlength ? { maxLength: field.maxlength } : {}),
    ...(field.readonly ? { readOnly: true } : {}),
    ...(field.options ? { enum: Object.keys(field.options) } : {}),
  };
  if (field.serialize) return { type: ['array', 'null'], items: base, title: field.title };
  // Absent values come back as null unless the field is required.
  if (!field.required && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

/** A row of an entity: one property per field, secrets marked (returned only to permitted callers). */
export function rowSchema(entity: CompiledEntity): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of entity.fields) {
    const schema = fieldSchema(field);
    properties[field.name] = field.secret
      ? { ...schema, description: `Secret: returned only to holders of ${field.secret.join(' or ')}` }
      : schema;
  }
  return {
    type: 'object',
    title: entity.name,
    ...(entity.description ? { description: entity.description } : {}),
    properties,
  };
}
