/**
 * APIv4 `save` (records, defaults, match) and `replace`. New records of a `save` without `match` are created
 * as one batch through the entity service (a few multi-row INSERTs, the same lifecycle as one by one), their
 * related records (`email_primary.email`) as one batch per reference; updates go record by record.
 */
import type { ActionContext } from '../../kernel';
import type { CompiledEntity, Condition } from '../entity-core';
import type { Params } from './base';
import { invalid, parseWhere, v4Field } from './params';
import type { Row } from './types';
import { matchReplaced, mergeRelated, splitRelated, type RelatedValues } from './write-parts';
import { ACL, Api4Writes, SAVE_ERRORS } from './writes';

/** The related values of a batch for one reference (`email_primary`), by the index of their record. */
type RelatedBatch = { related: RelatedValues; entries: { index: number; clean: Row }[] };

/** One record of a save: its values, the stored row it updates (null: created) and its related values. */
interface Planned {
  values: Row;
  existing: Row | null;
  related: RelatedValues[];
}

export class Api4Saves extends Api4Writes {
  async save(entity: CompiledEntity, params: Params, ctx: ActionContext) {
    const records = (params.records as Row[] | undefined) ?? [];
    const given = splitRelated(entity, params.defaults ?? {});
    const defaults = this.values(entity, await this.suffixFree(entity, given.own, ctx), ctx, false);
    const match = (params.match as string[] | undefined) ?? [];
    for (const field of match)
      if (!v4Field(entity, field)) throw invalid(`Invalid field '${field}' in match`, { error_field: field });
    const out: Row[] = [];
    const fresh: { index: number; planned: Planned }[] = [];
    for (const [i, rec] of records.entries()) {
      const { own, related } = splitRelated(entity, rec);
      const values = { ...defaults, ...this.values(entity, await this.suffixFree(entity, own, ctx), ctx) };
      const existing = await this.existingOf(entity, values, match, i, ctx);
      const planned = { values, existing, related: mergeRelated(given.related, related) };
      // With `match`, a record may match one saved earlier in the same call: those are written in order.
      if (!planned.existing && !match.length) fresh.push({ index: i, planned });
      else out[i] = await this.saveOne(entity, values, planned.existing, ctx, planned.related);
    }
    const created = await this.createAll(
      entity,
      fresh.map(({ planned }) => planned),
      ctx,
    );
    fresh.forEach(({ index }, k) => (out[index] = created[k]));
    return { values: out };
  }

  /** The stored row a record updates: by its id, or by the `match` fields; null when it is new. */
  private async existingOf(
    entity: CompiledEntity,
    values: Row,
    match: string[],
    index: number,
    ctx: ActionContext,
  ): Promise<Row | null> {
    if (values.id !== undefined) {
      const seen = await this.matching(entity, undefined, ctx, [{ path: 'id', op: '=', value: values.id }]);
      if (!seen.length) {
        if (await this.service.byId(this.session(ctx), entity, values.id as number)) throw ACL();
        throw invalid(`records[${index}]: ${entity.name} id ${String(values.id)} not found`, { error_field: 'id' });
      }
      return this.service.byId(this.session(ctx), entity, values.id as number);
    }
    if (!match.length || !match.every((m) => m in values)) return null;
    const conds: Condition[] = match.map((m) =>
      values[m] === null ? { path: m, op: 'IS NULL' } : { path: m, op: '=', value: values[m] },
    );
    const ids = await this.matching(entity, undefined, ctx, conds);
    if (ids.length > 1)
      throw invalid(`records[${index}]: match criteria found ${ids.length} ${entity.name} records`, {
        error_field: 'match',
      });
    return ids.length ? this.service.byId(this.session(ctx), entity, ids[0]) : null;
  }

  /** New records in one batch, then their related records in one batch per reference; rows as APIv4 shows them. */
  private async createAll(entity: CompiledEntity, planned: Planned[], ctx: ActionContext): Promise<Row[]> {
    if (planned.length < 2)
      return Promise.all(planned.map((one) => this.saveOne(entity, one.values, null, ctx, one.related)));
    const session = this.session(ctx);
    const values = planned.map((one) => one.values);
    const rows = await this.service.saveMany(session, entity, values, { params: values, errors: SAVE_ERRORS });
    const ids = rows.map((row) => Number(row.id));
    // The batch write read its rows back (RETURNING, or a read after hooks that changed them): shown as they are.
    const out = this.shown(entity, rows, ctx);
    const groups = new Map<string, RelatedBatch>();
    for (const [index, one] of planned.entries())
      for (const related of one.related) {
        const target = this.registry.get(related.field.related!.entity);
        const clean = this.values(target, await this.suffixFree(target, related.values, ctx), ctx, false);
        const group = groups.get(related.field.name) ?? { related, entries: [] };
        group.entries.push({ index, clean });
        groups.set(related.field.name, group);
      }
    // One batch per reference, one after the other: a pg client runs one query at a time (queuing a second on it
    // is deprecated; pg 9 refuses it), and two references to one entity in order, so its primary rules see both.
    for (const { related, entries } of groups.values()) {
      const { entity: name, fk, where = {} } = related.field.related!;
      const target = this.registry.get(name);
      const records = entries.map(({ index, clean }) => ({ ...where, ...clean, [fk]: ids[index] }));
      const saved = await this.service.saveMany(session, target, records, { params: records, errors: SAVE_ERRORS });
      const shown = this.shown(target, saved, ctx);
      entries.forEach(({ index, clean }, k) => {
        for (const key of Object.keys(clean)) out[index][`${related.field.name}.${key}`] = shown[k][key] ?? null;
      });
    }
    return out;
  }

  async replace(entity: CompiledEntity, params: Params, ctx: ActionContext) {
    if (!Array.isArray(params.where) || !params.where.length)
      throw invalid('Parameter "where" is required for replace', { error_field: 'where' });
    const wc = this.wc(entity, ctx);
    const conds = parseWhere(wc, params.where);
    await this.translateSuffixes(wc, ctx.db);
    const before = await this.matching(entity, params.where, ctx);
    // The where's equalities are defaults of every record (as APIv4 does).
    const defaults = { ...equalities(conds), ...((params.defaults as Row | undefined) ?? {}) };
    const records = await matchReplaced(
      this.service,
      this.session(ctx),
      entity,
      { records: (params.records as Row[] | undefined) ?? [], defaults, match: params.match },
      before,
    );
    const { values } = await this.save(entity, { records, defaults }, ctx);
    const kept = new Set(values.map((r) => Number(r.id)));
    for (const id of before) if (!kept.has(id)) await this.deleteOne(entity, id, ctx);
    return { values };
  }
}

/** Is this a top-level `=` filter (replace's defaults)? */
function equalities(conds: Condition[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of conds) if ('path' in c && c.op === '=' && !c.path.includes('.')) out[c.path] = c.value;
  return out;
}
