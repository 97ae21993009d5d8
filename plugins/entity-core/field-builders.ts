/** Builders for the field definitions every entity plugin writes: the id, a Boolean flag, a text field. */
import type { FieldDef } from './types';

/** The `id` primary key (`uniqueName`: the reference's `<entity>_id` spelling in APIv3). */
export const idField = (title: string, uniqueName?: string): FieldDef => ({
  name: 'id',
  type: 'Int',
  title,
  required: true,
  readonly: true,
  ...(uniqueName ? { uniqueName } : {}),
});

/** A required Boolean with its default, in the database and through the API (1/0). */
export const flagField = (name: string, title: string, fallback: boolean, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: fallback,
  apiDefault: fallback ? 1 : 0,
  ...extra,
});

export const textField = (name: string, title: string, maxlength = 255, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'String',
  title,
  maxlength,
  ...extra,
});
