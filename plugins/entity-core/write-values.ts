/** The per-row parts of a write that look at the entity's fields: starting values, mandatory fields. */
import { KernelError } from '../../kernel';
import type { CompiledEntity, FieldDef } from './types';

type Row = Record<string, unknown>;

/** The values a write starts from: the input without its id, and on create the fields' API defaults. */
export function initialValues(entity: CompiledEntity, input: Row, existing: Row | null): Row {
  const values: Row = { ...input };
  delete values.id;
  if (!existing)
    for (const field of shapeOf(entity).defaulted)
      if (values[field.name] === undefined) values[field.name] = field.apiDefault;
  return values;
}

/** The fields a write looks at on every row, found once per compiled entity (a batch has thousands of rows). */
const shapes = new WeakMap<CompiledEntity, { defaulted: FieldDef[]; required: FieldDef[] }>();
export function shapeOf(entity: CompiledEntity) {
  let shape = shapes.get(entity);
  if (!shape) {
    shape = {
      defaulted: entity.fields.filter((f) => f.apiDefault !== undefined),
      required: entity.fields.filter((f) => f.apiRequired),
    };
    shapes.set(entity, shape);
  }
  return shape;
}

export function mandatory(fields: string[], entity: CompiledEntity): KernelError {
  return new KernelError('E_INVALID_PARAMS', `Mandatory values missing from ${entity.name}: ${fields.join(', ')}`, {
    details: { error_code: 'mandatory_missing', fields },
  });
}
