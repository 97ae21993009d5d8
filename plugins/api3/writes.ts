/** The generic APIv3 writes: create (and its match), delete, replace, validate, and the deprecated update/setvalue. */
import { KernelError, type ActionContext } from '../../kernel';
import { isList, type CompiledEntity } from '../entity-core';
import { envelope, scalarEnvelope, stringifyLeaves } from './envelope';
import { api3Error, invalid, mandatoryMissing } from './errors';
import { coerceValue } from './filters';
import { optionValue, truthy } from './params';
import { snake } from './service';
import { Api3Reads, type Params, type Row } from './reads';

export const DEPRECATED: Record<string, string> = {
  setvalue: 'setvalue is deprecated; use create with an id',
  update: 'update is deprecated; use create with an id',
};

/** Access refused to a write, in the APIv3 wording. */
const ACCESS_DENIED = () =>
  new KernelError('E_FORBIDDEN', 'Permission denied to modify contact record', {
    details: { error_code: 'unauthorized' },
  });
const SAVE_ERRORS = { mandatory: (fields: string[]) => mandatoryMissing(fields), access: ACCESS_DENIED };

export abstract class Api3Writes extends Api3Reads {
  // ---------------------------------------------------------------- writes

  protected idOf(e: CompiledEntity, p: Params): number | undefined {
    const idf = e.byName.get('id')!;
    const keys = ['id', idf.uniqueName, ...(idf.aliases ?? []), `${snake(e.name)}_id`].filter(Boolean) as string[];
    const k = keys.find((x) => p[x] !== undefined && p[x] !== null && p[x] !== '');
    if (!k) return undefined;
    const v = p[k];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
    if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v);
    throw invalid(`${k} is not a valid integer`, 2001, { error_field: k, type: 'integer' });
  }

  /** Writable values from params, by field name, validated. */
  async values(entity: CompiledEntity, params: Params, ctx: ActionContext, isUpdate: boolean): Promise<Row> {
    const out: Row = {};
    for (const [key, raw] of Object.entries(params)) {
      const field = entity.lookup.get(key);
      if (
        !field ||
        field.name === 'id' ||
        field.readonly ||
        field.related ||
        field.labelOf ||
        field.via ||
        raw === undefined
      )
        continue;
      if (field.name in out && key !== field.name) continue; // the canonical name wins over an alias
      let value: unknown;
      if (raw === null || raw === '' || raw === 'null') value = null;
      else if (isList(field)) {
        const items = Array.isArray(raw)
          ? raw
          : String(raw)
              .split(/[\x01,]/)
              .filter(Boolean);
        value = await Promise.all(items.map((x) => coerceValue(this.fc(ctx), field, x, key)));
      } else value = await coerceValue(this.fc(ctx), field, raw, key);
      if (typeof value === 'string' && field.maxlength && value.length > field.maxlength) {
        throw api3Error(
          'E_INVALID_PARAMS',
          2100,
          `Value for ${key} is ${value.length} characters  - This field has a maxlength of ${field.maxlength} characters.`,
          { field: key, max_length: field.maxlength },
        );
      }
      out[field.name] = value;
    }
    if (!isUpdate) {
      for (const field of entity.fields)
        if (out[field.name] === undefined && field.apiDefault !== undefined) out[field.name] = field.apiDefault;
    }
    return out;
  }

  private missing(e: CompiledEntity, values: Row): string[] {
    return e.fields
      .filter(
        (f) => f.apiRequired && (values[f.name] === undefined || values[f.name] === null || values[f.name] === ''),
      )
      .map((f) => f.name);
  }

  private async match(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<number | undefined> {
    const mandatory = optionValue(params, 'match-mandatory');
    const spec = mandatory ?? optionValue(params, 'match');
    if (spec === undefined || spec === null || spec === '') return undefined;
    const fields = Array.isArray(spec)
      ? spec.map(String)
      : String(spec)
          .split(',')
          .map((s) => s.trim());
    const filter: Params = { options: { limit: 2 } };
    for (const name of fields) {
      if (!entity.lookup.get(name)) throw invalid(`Unknown field ${name} in match criteria`);
      filter[name] = params[name] ?? { 'IS NULL': 1 };
    }
    const { rows } = await this.select(entity, filter, ctx, { sequential: true, return: ['id'] });
    if (rows.length > 1) throw invalid('Ambiguous match criteria');
    if (rows.length === 0 && mandatory !== undefined) throw invalid('Failed to match existing record');
    return rows.length ? Number(rows[0].id) : undefined;
  }

  /** Create, or update when an id is given (or matched); returns the saved row (field names). */
  async save(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<Row> {
    const id = this.idOf(e, p) ?? (await this.match(e, p, ctx));
    const existing = id === undefined ? null : await this.service.byId(this.session(ctx), e, id);
    if (id !== undefined && !existing) throw invalid(`${e.name} id ${id} not found.`);
    const values = await this.values(e, p, ctx, !!existing);
    return this.service.save(this.session(ctx), e, values, { existing, params: p, errors: SAVE_ERRORS });
  }

  private wire(e: CompiledEntity, row: Row): Row {
    const rec: Row = {};
    for (const f of e.fields) {
      if (f.related || f.labelOf || f.via || f.secret) continue;
      if (f.name in row) rec[f.name] = row[f.name];
    }
    return stringifyLeaves(rec) as Row;
  }

  async create(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const row = await this.save(e, p, ctx);
    return envelope([this.wire(e, row)], { sequential: truthy(p.sequential) });
  }

  async delete(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const id = this.idOf(e, p);
    if (id === undefined) throw mandatoryMissing(['id']);
    const row = await this.service.byId(this.session(ctx), e, id);
    if (!row) throw invalid(`Could not delete entity id ${id}`);
    await this.service.delete(this.session(ctx), e, row, { params: p, errors: SAVE_ERRORS });
    return scalarEnvelope(1);
  }

  async replace(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<unknown> {
    if (!Array.isArray(params.values)) throw mandatoryMissing(['values']);
    const set: Params = {};
    for (const [k, value] of Object.entries(params))
      if (!['values', 'sequential', 'options'].includes(k) && !k.startsWith('api.')) set[k] = value;
    const { rows: before } = await this.select(entity, { ...set, return: ['id'] }, ctx, {
      limit: 0,
      offset: 0,
      sequential: true,
    });
    const kept = new Set<number>();
    const saved: Row[] = [];
    for (const item of params.values as Params[]) {
      const row = await this.save(entity, { ...set, ...item }, ctx);
      kept.add(Number(row.id));
      saved.push(this.wire(entity, row));
    }
    for (const row of before) {
      if (!kept.has(Number(row.id))) await this.delete(entity, { id: Number(row.id) }, ctx);
    }
    return envelope(saved, { sequential: truthy(params.sequential) });
  }

  async update(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    if (p.id === undefined || p.id === null || p.id === '') throw invalid('Mandatory parameter missing id');
    const id = this.idOf(e, p)!;
    const rows = await this.service.get(this.session(ctx), e, {
      where: [{ path: 'id', op: '=', value: id }],
      limit: 2,
    });
    if (!rows.length) throw invalid(`No ${e.name} with id ${id}`);
    const env = (await this.create(e, p, ctx)) as Record<string, unknown>;
    return { ...env, deprecated: DEPRECATED.update };
  }

  async setvalue(entity: CompiledEntity, params: Params, ctx: ActionContext): Promise<unknown> {
    const missing = ['id', 'field'].filter((k) => params[k] === undefined || params[k] === '');
    if (!('value' in params)) missing.push('value');
    if (missing.length)
      throw api3Error(
        'E_INVALID_PARAMS',
        'required',
        `Mandatory key(s) missing from params array: ${missing.join(', ')}`,
        { fields: missing },
      );
    const id = this.idOf(entity, params)!;
    const field = entity.lookup.get(String(params.field));
    if (!field || field.readonly || field.related || field.labelOf || field.via || field.name === 'id')
      throw api3Error(
        'E_INVALID_PARAMS',
        'invalid_field',
        `Param 'field' (${String(params.field)}) is invalid. must be an existing field`,
        { field: String(params.field) },
      );
    if (field.type === 'Int' && params.value !== null && params.value !== '' && !/^-?\d+$/.test(String(params.value))) {
      throw api3Error('E_INVALID_PARAMS', 'NaN', `Param '${field.name}' must be a number`, { field: field.name });
    }
    if (field.required && (params.value === null || params.value === ''))
      throw api3Error('E_INVALID_PARAMS', 'required', `Param '${field.name}' is required`, { field: field.name });
    const row = await this.save(entity, { id, [field.name]: params.value }, ctx);
    return {
      ...scalarEnvelope(stringifyLeaves({ id: row.id, [field.name]: row[field.name] })),
      deprecated: DEPRECATED.setvalue,
    };
  }

  async validate(entity: CompiledEntity, input: Params, ctx: ActionContext): Promise<unknown> {
    const action = String(input.action ?? input.api_action ?? '');
    if (!action) throw mandatoryMissing(['action']);
    const errors: Record<string, { message: string; code: string }> = {};
    const params = { ...input };
    delete params.action;
    if (action === 'create') {
      const isUpdate = this.idOf(entity, params) !== undefined;
      for (const [key, raw] of Object.entries(params)) {
        const field = entity.lookup.get(key);
        if (!field || field.readonly || field.name === 'id' || raw === null || raw === '') continue;
        try {
          await this.values(entity, { [key]: raw }, ctx, true);
        } catch (err) {
          errors[field.name] = { message: (err as Error).message, code: 'incorrect_value' };
        }
      }
      if (!isUpdate) {
        const vals: Row = {};
        for (const [k, value] of Object.entries(params)) {
          const field = entity.lookup.get(k);
          if (field) vals[field.name] = value;
        }
        for (const field of entity.fields)
          if (vals[field.name] === undefined && field.apiDefault !== undefined) vals[field.name] = field.apiDefault;
        for (const name of this.missing(entity, vals))
          errors[name] ??= {
            message: `Mandatory key(s) missing from params array: ${name}`,
            code: 'mandatory_missing',
          };
      }
    }
    return envelope([errors as Row], { sequential: true });
  }
}
