/** The generic APIv4 writes: create, update, save (records, defaults, match), delete and replace. */
import { KernelError, type ActionContext } from '../../kernel';
import type { CompiledEntity } from '../entity-core';
import { type Condition } from '../entity-core';
import { resolveValueSuffixes } from './suffixes';
import { invalid, mayRead, parseWhere, v4Field } from './params';
import { coerceWrite } from './coerce';
import type { Row } from './types';
import { Api4Base, type Params, type Reader } from './base';
import { matchReplaced, mergeRelated, splitRelated, type RelatedValues } from './write-parts';

export const ACL = () => new KernelError('E_FORBIDDEN', 'ACL check failed', { details: { acl: true } });

/** APIv4's wording of the service's refusals. */
export const SAVE_ERRORS = {
  mandatory: (fields: string[], e: CompiledEntity) =>
    invalid(`Mandatory values missing from Api4 ${e.name}::create: ${fields.join(', ')}`, { fields }),
  access: ACL,
};

export class Api4Writes extends Api4Base {
  private values(entity: CompiledEntity, raw: unknown, ctx: Reader, allowId = true): Row {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('values must be an object');
    const out: Row = {};
    for (const [k, value] of Object.entries(raw as Row)) {
      if (value === undefined) continue;
      const field = v4Field(entity, k);
      // A secret the caller may not read does not exist for them: it cannot be written either.
      if (!field || !mayRead(field, ctx.principal, ctx.trusted))
        throw invalid(`Invalid field '${k}' in values`, { error_field: k });
      if (field.name === 'id') {
        if (!allowId) continue;
        if (value === null) continue;
        const id = coerceWrite(field, value);
        if (typeof id !== 'number' || id <= 0) throw invalid('id must be a positive integer', { error_field: 'id' });
        out.id = id;
        continue;
      }
      if (field.readonly) continue; // computed or managed fields are ignored, so a fetched record can be saved back
      out[field.name] = coerceWrite(field, value);
    }
    return out;
  }

  /**
   * Creates (existing null) or updates one record through the service, then its related records
   * (`email_primary.email`); returns the stored row as APIv4 shows it, with the related values written.
   */
  private async saveOne(
    e: CompiledEntity,
    input: Row,
    existing: Row | null,
    ctx: ActionContext,
    related: RelatedValues[] = [],
  ): Promise<Row> {
    const row = await this.service.save(this.session(ctx), e, input, {
      existing,
      params: input,
      errors: SAVE_ERRORS,
      reread: false,
    });
    const out = await this.readById(e, Number(row.id), ctx);
    for (const group of related) Object.assign(out, await this.saveRelated(Number(row.id), group, ctx));
    return out;
  }

  /** Writes the related record a reference names (updated when there is one, created otherwise). */
  private async saveRelated(id: number, { field, values }: RelatedValues, ctx: ActionContext): Promise<Row> {
    const { entity: name, fk, where = {} } = field.related!;
    const target = this.registry.get(name);
    const clean = this.values(target, await this.suffixFree(target, values, ctx), ctx, false);
    const conditions: Condition[] = Object.entries({ ...where, [fk]: id }).map(([path, value]) => ({
      path,
      op: '=',
      value,
    }));
    const [found] = await this.service.get(this.session(ctx), target, { where: conditions, select: ['id'], limit: 1 });
    const existing = found ? await this.service.byId(this.session(ctx), target, Number(found.id)) : null;
    const saved = await this.saveOne(target, existing ? clean : { ...where, ...clean, [fk]: id }, existing, ctx);
    return Object.fromEntries(Object.keys(clean).map((key) => [`${field.name}.${key}`, saved[key] ?? null]));
  }

  /** Ids the caller may see among the records matching `where` (row access: view). */
  protected async matching(
    e: CompiledEntity,
    where: unknown,
    ctx: ActionContext,
    extra: Condition[] = [],
  ): Promise<number[]> {
    const wc = this.wc(e, ctx);
    const conds = [...extra, ...(await this.where(e, where, wc, ctx.db, false))];
    await this.checkJoins(wc, ctx);
    const rows = await this.service.get(this.session(ctx), e, { where: conds, select: ['id'], joinAccess: true });
    return rows.map((r) => Number(r.id));
  }

  /** `values` with `field:name` keys resolved to stored values (option lookups need the database). */
  private suffixFree(e: CompiledEntity, raw: unknown, ctx: ActionContext): Promise<unknown> {
    return resolveValueSuffixes(this.registry, ctx.db, e, raw);
  }

  async create(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const { own, related } = splitRelated(e, p.values);
    const values = this.values(e, await this.suffixFree(e, own, ctx), ctx, false);
    return { values: [await this.saveOne(e, values, null, ctx, related)] };
  }

  async update(e: CompiledEntity, p: Params, ctx: ActionContext) {
    const { own, related } = splitRelated(e, p.values);
    const values = this.values(e, await this.suffixFree(e, own, ctx), ctx);
    const hasWhere = Array.isArray(p.where) && p.where.length > 0;
    if (!hasWhere && values.id === undefined)
      throw invalid('Parameter "where" is required unless values include an id', { error_field: 'where' });
    const extra: Condition[] = values.id !== undefined ? [{ path: 'id', op: '=', value: values.id }] : [];
    const ids = await this.matching(e, p.where, ctx, extra);
    delete values.id;
    const out: Row[] = [];
    for (const id of ids)
      out.push(await this.saveOne(e, values, (await this.service.byId(this.session(ctx), e, id))!, ctx, related));
    return { values: out };
  }

  async save(entity: CompiledEntity, params: Params, ctx: ActionContext) {
    const records = (params.records as Row[] | undefined) ?? [];
    const given = splitRelated(entity, params.defaults ?? {});
    const defaults = this.values(entity, await this.suffixFree(entity, given.own, ctx), ctx, false);
    const match = (params.match as string[] | undefined) ?? [];
    for (const field of match)
      if (!v4Field(entity, field)) throw invalid(`Invalid field '${field}' in match`, { error_field: field });
    const out: Row[] = [];
    for (const [i, rec] of records.entries()) {
      const { own, related } = splitRelated(entity, rec);
      const values = { ...defaults, ...this.values(entity, await this.suffixFree(entity, own, ctx), ctx) };
      let existing: Row | null = null;
      if (values.id !== undefined) {
        const seen = await this.matching(entity, undefined, ctx, [{ path: 'id', op: '=', value: values.id }]);
        if (!seen.length) {
          if (await this.service.byId(this.session(ctx), entity, values.id as number)) throw ACL();
          throw invalid(`records[${i}]: ${entity.name} id ${String(values.id)} not found`, { error_field: 'id' });
        }
        existing = await this.service.byId(this.session(ctx), entity, values.id as number);
      } else if (match.length && match.every((m) => m in values)) {
        const conds: Condition[] = match.map((m) =>
          values[m] === null ? { path: m, op: 'IS NULL' } : { path: m, op: '=', value: values[m] },
        );
        const ids = await this.matching(entity, undefined, ctx, conds);
        if (ids.length > 1)
          throw invalid(`records[${i}]: match criteria found ${ids.length} ${entity.name} records`, {
            error_field: 'match',
          });
        if (ids.length) existing = await this.service.byId(this.session(ctx), entity, ids[0]);
      }
      out.push(await this.saveOne(entity, values, existing, ctx, mergeRelated(given.related, related)));
    }
    return { values: out };
  }

  async delete(e: CompiledEntity, p: Params, ctx: ActionContext) {
    if (!Array.isArray(p.where) || !p.where.length)
      throw invalid('Parameter "where" is required for delete', { error_field: 'where' });
    // Contact's `useTrash` (default true): false deletes for good, as APIv3's skip_undelete.
    if (p.useTrash !== undefined && !e.byName.has('is_deleted'))
      throw invalid(`useTrash applies to entities with a trash (Contact), not ${e.name}`, { error_field: 'useTrash' });
    const ids = await this.matching(e, p.where, ctx);
    const out: Row[] = [];
    for (const id of ids) {
      await this.deleteOne(e, id, ctx, p.useTrash === false);
      out.push({ id });
    }
    return { values: out };
  }

  private async deleteOne(e: CompiledEntity, id: number, ctx: ActionContext, forGood = false): Promise<void> {
    const row = (await this.service.byId(this.session(ctx), e, id))!;
    const params = forGood ? { id, skip_undelete: 1 } : { id };
    await this.service.delete(this.session(ctx), e, row, { params, errors: SAVE_ERRORS });
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
