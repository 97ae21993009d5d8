/**
 * Event behaviour: the reference's mandatory keys on create, cloning from `template_id` (4.3.0) with the
 * template's price set, APIv3's `price_set_id` only when a `return` is given (4.7.25) and its `isCurrent` filter.
 */
import { KernelError } from '../../kernel';
import {
  present,
  truthy,
  type CompiledEntity,
  type Condition,
  type EntityRegistry,
  type SaveContext,
} from '../entity-core';
import { copyLocBlock } from './locblock-lifecycle';

type Row = Record<string, unknown>;

/** Not copied from a template: the record's identity and template flags (the clone is an event, not a template). */
const NOT_CLONED = new Set(['id', 'is_template', 'template_title', 'created_date', 'created_id']);

function sentFields(event: CompiledEntity, params: Row): Set<string> {
  const sent = new Set<string>();
  for (const key of Object.keys(params)) {
    const field = event.lookup.get(key);
    if (field) sent.add(field.name);
  }
  return sent;
}

function mandatory(fields: string[]): KernelError {
  return new KernelError('E_INVALID_PARAMS', `Mandatory key(s) missing from params array: ${fields.join(', ')}`, {
    details: { error_code: 'mandatory_missing', fields },
  });
}

/** The reference's create checks: an event needs a title, a start date and a type (or a template); a template its title. */
function checkMandatory(params: Row, sent: Set<string>): void {
  if (truthy(params.is_template)) {
    if (!sent.has('template_title')) throw mandatory(['template_title']);
    return;
  }
  const missing = ['title', 'start_date'].filter((name) => !sent.has(name));
  if (!sent.has('event_type_id') && !present(params.template_id)) missing.push('event_type_id');
  if (missing.length) throw mandatory(missing);
}

async function templateOf(sc: SaveContext): Promise<Row | undefined> {
  if (!present(sc.params.template_id)) return undefined;
  const templateId = Number(sc.params.template_id);
  if (!Number.isInteger(templateId) || templateId <= 0)
    throw new KernelError('E_INVALID_PARAMS', 'template_id is not a valid integer', {
      details: { error_code: 2001, error_field: 'template_id' },
    });
  const [template] = await sc.entities.get('Event', { where: { id: templateId }, limit: 1 });
  if (!template) throw new KernelError('E_INVALID_PARAMS', `template_id ${templateId}: no such event template`);
  return template;
}

/** APIv3's `isCurrent`: events starting or ending today or later. */
function current(): Condition {
  const today = new Date().toISOString().slice(0, 10);
  return {
    or: [
      { path: 'start_date', op: '>=', value: today },
      { path: 'end_date', op: '>=', value: today },
    ],
  };
}

export function extendEvents(registry: EntityRegistry): void {
  const event = () => registry.get('Event');
  registry.extend('Event', {
    params: ['template_id'],
    beforeGet(params, ctx) {
      if (ctx.api !== 3) return undefined;
      // 4.7.25: price_set_id comes only with a `return` (any return, as the reference adds it then).
      const asked =
        (params.return !== undefined && params.return !== '' && params.return !== null) ||
        Object.keys(params).some((key) => key.startsWith('return.') && key !== 'return.is_full' && truthy(params[key]));
      const out = asked ? { ...params, 'return.price_set_id': 1 } : params;
      return { params: out, where: truthy(params.isCurrent) ? [current()] : [] };
    },
    async beforeSave(values, sc) {
      if (sc.existing) return values;
      const sent = sentFields(event(), sc.params);
      checkMandatory(sc.params, sent);
      const template = await templateOf(sc);
      if (!template) return values;
      // 4.3.0: the template's fields, under what the caller gave.
      const out: Row = { ...values };
      for (const field of event().fields) {
        if (NOT_CLONED.has(field.name) || field.related || field.via || field.labelOf) continue;
        if (!sent.has(field.name) && template[field.name] !== undefined) out[field.name] = template[field.name];
      }
      out.is_template = false;
      // The clone gets its own copy of the template's location (unless the caller gave one).
      if (!sent.has('loc_block_id') && present(template.loc_block_id))
        out.loc_block_id = (await copyLocBlock(sc.entities, Number(template.loc_block_id))) ?? null;
      return out;
    },
    async afterSave(row, sc) {
      if (sc.existing || !present(sc.params.template_id)) return;
      // The clone uses the template's price set.
      const [link] = await sc.entities.get('PriceSetEntity', {
        where: { entity_table: 'civicrm_event', entity_id: Number(sc.params.template_id) },
        limit: 1,
      });
      if (link)
        await sc.entities.save('PriceSetEntity', {
          entity_table: 'civicrm_event',
          entity_id: row.id,
          price_set_id: link.price_set_id,
        });
    },
  });
}
