/** The generic APIv4 writes: create, update and delete (save and replace: saves.ts). */
import { KernelError, type ActionContext } from '../../kernel';
import type { CompiledEntity } from '../entity-core';
import { type Condition } from '../entity-core';
import { resolveValueSuffixes } from './suffixes';
import { invalid, mayRead, v4Field } from './params';
import { coerceWrite } from './coerce';
import type { Row } from './types';
import type { Params, Reader } from './base';
import { Api4Reads } from './reads';
import { splitRelated, type RelatedValues } from './write-parts';

export const ACL = () => new KernelError('E_FORBIDDEN', 'ACL check failed', { details: { acl: true } });

/** APIv4's wording of the service's refusals. */
export const SAVE_ERRORS = {
  mandatory: (fields: string[], e: CompiledEntity) =>
    invalid(`Mandatory values missing from Api4 ${e.name}::create: ${fields.join(', ')}`, { fields }),
  access: ACL,
};

export class Api4Writes extends Api4Reads {
  protected values(entity: CompiledEntity, raw: unknown, ctx: Reader, allowId = true): Row {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('values must be an object');
    const out: Row = {};
    for (const k in raw as Row) {
      const value = (raw as Row)[k];
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
  protected async saveOne(
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
  protected suffixFree(e: CompiledEntity, raw: unknown, ctx: ActionContext): Promise<unknown> {
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

  protected async deleteOne(e: CompiledEntity, id: number, ctx: ActionContext, forGood = false): Promise<void> {
    const row = (await this.service.byId(this.session(ctx), e, id))!;
    const params = forGood ? { id, skip_undelete: 1 } : { id };
    await this.service.delete(this.session(ctx), e, row, { params, errors: SAVE_ERRORS });
  }
}
