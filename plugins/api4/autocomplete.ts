/**
 * The generic APIv4 `autocomplete` action (what the reference's entity-reference widgets call): a page of
 * `{id, label, description}` records whose search field contains the typed `input`, ordered by label, read
 * through `get` so row access, the trash default and join permissions apply as they do there.
 */
import type { ActionContext } from '../../kernel';
import type { CompiledEntity } from '../entity-core';
import type { Params } from './base';
import type { Api4Reads } from './reads';
import { invalid, v4Field } from './params';
import type { Row } from './types';

/** Records per page (the reference's `search_autocomplete_count` default). */
export const AUTOCOMPLETE_PAGE_SIZE = 15;

export const AUTOCOMPLETE_SCHEMA = {
  input: { type: 'string', maxLength: 255 },
  searchField: { type: 'string' },
  page: { type: 'integer', minimum: 1 },
  key: { type: 'string' },
  ids: { type: 'array', items: { type: ['integer', 'string'] }, maxItems: 1000 },
  filters: { type: 'object' },
  // Sent by the reference's widgets to find a form field's settings; this service has no forms.
  formName: { type: 'string' },
  fieldName: { type: 'string' },
} as const;

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** The field named by a param, or the fallback; an unknown or non-column name is the caller's mistake. */
function fieldOf(entity: CompiledEntity, name: unknown, fallback: string, param: string): string {
  const field = v4Field(entity, String(name ?? fallback));
  if (!field || field.collection || field.related)
    throw invalid(`autocomplete: ${param} '${String(name)}' is not a field of ${entity.name}`, { error_field: param });
  return field.name;
}

export async function autocomplete(
  reader: Api4Reads,
  entity: CompiledEntity,
  params: Params,
  ctx: ActionContext,
): Promise<{ values: Row[]; countMatched: number }> {
  const fallback = entity.titleField ?? entity.labelField ?? (entity.byName.has('name') ? 'name' : 'id');
  const label = fieldOf(entity, undefined, fallback, 'label');
  const search = fieldOf(entity, params.searchField, entity.labelField ?? label, 'searchField');
  const key = fieldOf(entity, params.key, 'id', 'key');
  const where: unknown[] = [];
  for (const [name, value] of Object.entries((params.filters ?? {}) as Row)) {
    fieldOf(entity, name.split(':')[0], name, 'filters');
    where.push([name, Array.isArray(value) ? 'IN' : '=', value]);
  }
  const page = (params.page as number | undefined) ?? 1;
  let paging = { limit: AUTOCOMPLETE_PAGE_SIZE, offset: (page - 1) * AUTOCOMPLETE_PAGE_SIZE };
  if (Array.isArray(params.ids)) {
    // The records already chosen, to show their labels: exactly these, unpaged.
    where.push([key, 'IN', params.ids]);
    paging = { limit: 0, offset: 0 };
  } else if (params.input) {
    const input = String(params.input);
    const like = [search, 'LIKE', `%${escapeLike(input)}%`];
    // A number typed is also looked up as an id (as the reference does).
    where.push(/^[1-9]\d{0,15}$/.test(input) ? ['OR', [like, ['id', '=', Number(input)]]] : like);
  }
  const { values, countMatched } = await reader.get(
    entity,
    {
      select: [...new Set([key, label]), 'row_count'],
      where,
      orderBy: { [label]: 'ASC' },
      ...paging,
    },
    ctx,
  );
  return {
    values: values.map((row) => ({ id: row[key], label: row[label] ?? '', description: [] })),
    countMatched: countMatched ?? values.length,
  };
}
