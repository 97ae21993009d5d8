/**
 * APIv4 `get`, the read every other action builds on: its params resolved (select with suffixes and
 * aggregates, where with the entity's `beforeGet` conditions, orderBy, joins, groupBy, having), then the rows.
 * A resolution is kept for the next identical get by the same reader (get-resolutions.ts); the permission to
 * join onto each entity the read crosses is asked again on every call.
 */
import type { ActionContext } from '../../kernel';
import type { Aggregate, CompiledEntity, FieldDef, OptionItem } from '../entity-core';
import { Api4Base, type Params } from './base';
import { GetResolutions, type GetResolution } from './get-resolutions';
import { mayRead, resolvePath, v4Fields } from './params';
import { checkJoinOnto, parseAggregate, parseGroupBy, parseHaving, parseJoins } from './query-parts';
import { chainRefs, shownRows } from './rows';
import { optionsOf, splitSuffix, type Suffix } from './suffixes';
import type { Row } from './types';

export class Api4Reads extends Api4Base {
  private readonly resolutions = new GetResolutions(() => this.registry.optionsVersion);

  async get(
    entity: CompiledEntity,
    params: Params,
    ctx: ActionContext,
  ): Promise<{ values: Row[]; countMatched?: number }> {
    const resolved = await this.resolution(entity, params, ctx);
    const { fields, aggregates, suffixed, hiddenBases, shape, where, sort } = resolved;
    let values: Row[] = [];
    if (fields.size) {
      const { paths, rows } = await this.service.getRows(this.session(ctx), entity, {
        ...shape,
        where,
        select: [...fields.keys()].map((key) => aggregates.get(key) ?? key),
        sort,
        limit: (params.limit as number) || undefined,
        offset: (params.offset as number) || undefined,
      });
      values = shownRows(fields, paths, rows, ctx, {
        hidden: hiddenBases,
        columns: suffixed,
      });
    }
    const countMatched = resolved.rowCount
      ? await this.service.count(this.session(ctx), entity, {
          ...shape,
          where,
          select:
            aggregates.size || shape.groupBy?.length ? [...fields.keys()].map((key) => aggregates.get(key) ?? key) : [],
        })
      : undefined;
    return { values, countMatched };
  }

  /** The get's resolution: kept from an identical earlier get by the same reader (its join rights asked again), or made. */
  private async resolution(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<GetResolution> {
    const key = this.resolutions.key(entity, params, ctx);
    const kept = key === undefined ? undefined : this.resolutions.get(key, entity);
    if (!kept) return this.resolutions.made(key, () => this.resolve(entity, params, ctx));
    if (!ctx.trusted) for (const join of kept.shape.joins) await checkJoinOnto(join.entity, ctx);
    await this.checkJoins({ ...this.wc(entity, ctx), paths: kept.paths }, ctx);
    return kept;
  }

  private async resolve(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<GetResolution> {
    const wc = this.wc(entity, ctx);
    const joins = await parseJoins(wc, params.join, ctx);
    const opts = { trusted: ctx.trusted, aliases: wc.aliases };
    const aggregates = new Map<string, Aggregate>();
    const requested = (params.select as string[] | undefined) ?? [];
    const rowCount = requested.includes('row_count');
    const rest = requested.filter((s) => s !== 'row_count');
    const fields = new Map<string, FieldDef>();
    const suffixed: Array<{ key: string; base: string; suffix: Suffix; options: OptionItem[] }> = [];
    if ((!rest.length && !rowCount) || rest.includes('*'))
      for (const [k, field] of this.allFields(entity, ctx)) if (!field.secret) fields.set(k, field);
    for (const selected of rest) {
      if (selected === '*') continue;
      const parsed = parseAggregate(wc, selected);
      if (parsed) {
        aggregates.set(parsed.aggregate.alias, parsed.aggregate);
        fields.set(parsed.aggregate.alias, parsed.output);
        continue;
      }
      if (selected.endsWith('.*')) {
        // `contact_id.*`: every readable field of the joined entity.
        const base = resolvePath(this.registry, entity, `${selected.slice(0, -2)}.id`, ctx.principal, opts);
        wc.paths.push(base);
        const target = base.joined[base.joined.length - 1];
        for (const field of v4Fields(target))
          if (!field.secret && !field.collection && !field.related)
            fields.set(`${selected.slice(0, -2)}.${field.name}`, field);
        continue;
      }
      const { base, suffix } = splitSuffix(selected);
      const resolved = resolvePath(this.registry, entity, base, ctx.principal, { ...opts, secretLeaf: true });
      if (!mayRead(resolved.field, ctx.principal, ctx.trusted)) continue; // secrets are omitted for callers lacking their permission
      wc.paths.push(resolved);
      if (suffix) {
        const options = await optionsOf(this.registry, ctx.db, resolved.field, selected);
        suffixed.push({ key: selected, base, suffix, options });
      } else fields.set(selected, resolved.field);
    }
    // A suffixed column reads its field's stored value; the value itself is shown only if selected too.
    const hiddenBases = new Set<string>();
    for (const { base } of suffixed)
      if (!fields.has(base)) {
        hiddenBases.add(base);
        fields.set(base, resolvePath(this.registry, entity, base, ctx.principal, opts).field);
      }
    const groupBy = parseGroupBy(wc, params.groupBy);
    const where = await this.where(entity, params.where, wc, ctx.db, true, params);
    const aggregateOutputs = new Map([...aggregates.keys()].map((alias) => [alias, fields.get(alias)!]));
    const sort = await this.sortOf({ ...wc, outputs: aggregateOutputs }, params.orderBy, ctx.db);
    const having = parseHaving(wc, params.having, fields);
    const shape = { joins, groupBy, having, joinAccess: true as const };
    await this.checkJoins(wc, ctx);
    // Fields a chain refers to (`$id`, `$contact_id`) are fetched with the rows (and returned, as APIv4 does).
    if (params.chain && fields.size) {
      for (const ref of new Set(['id', ...chainRefs(params.chain)])) {
        if (fields.has(ref)) continue;
        try {
          const resolved = resolvePath(this.registry, entity, ref, ctx.principal, opts);
          wc.paths.push(resolved);
          fields.set(ref, resolved.field);
        } catch {
          /* not a field of this entity: left as written */
        }
      }
      await this.checkJoins(wc, ctx);
    }
    return { entity, fields, aggregates, suffixed, hiddenBases, shape, where, sort, rowCount, paths: wc.paths };
  }
}
