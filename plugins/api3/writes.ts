/** The generic APIv3 writes: create (and its match), delete, replace, validate, and the deprecated update/setvalue. */
import { KernelError, type ActionContext } from '../../kernel';
import type { CompiledEntity } from '../entity-core';
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
  async values(e: CompiledEntity, p: Params, ctx: ActionContext, isUpdate: boolean): Promise<Row> {
    const out: Row = {};
    for (const [key, raw] of Object.entries(p)) {
      const f = e.lookup.get(key);
      if (!f || f.name === 'id' || f.readonly || f.related || f.labelOf || f.via || raw === undefined) continue;
      if (f.name in out && key !== f.name) continue; // the canonical name wins over an alias
      let v: unknown;
      if (raw === null || raw === '' || raw === 'null') v = null;
      else if (f.serialize) {
        const items = Array.isArray(raw)
          ? raw
          : String(raw)
              .split(/[\x01,]/)
              .filter(Boolean);
        v = await Promise.all(items.map((x) => coerceValue(this.fc(ctx), f, x, key)));
      } else v = await coerceValue(this.fc(ctx), f, raw, key);
      if (typeof v === 'string' && f.maxlength && v.length > f.maxlength) {
        throw api3Error(
          'E_INVALID_PARAMS',
          2100,
          `Value for ${key} is ${v.length} characters  - This field has a maxlength of ${f.maxlength} characters.`,
          { field: key, max_length: f.maxlength },
        );
      }
      out[f.name] = v;
    }
    if (!isUpdate) {
      for (const f of e.fields) if (out[f.name] === undefined && f.apiDefault !== undefined) out[f.name] = f.apiDefault;
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

  private async match(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<number | undefined> {
    const mandatory = optionValue(p, 'match-mandatory');
    const spec = mandatory ?? optionValue(p, 'match');
    if (spec === undefined || spec === null || spec === '') return undefined;
    const fields = Array.isArray(spec)
      ? spec.map(String)
      : String(spec)
          .split(',')
          .map((s) => s.trim());
    const filter: Params = { options: { limit: 2 } };
    for (const f of fields) {
      if (!e.lookup.get(f)) throw invalid(`Unknown field ${f} in match criteria`);
      filter[f] = p[f] ?? { 'IS NULL': 1 };
    }
    const { rows } = await this.select(e, filter, ctx, { sequential: true, return: ['id'] });
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

  async replace(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    if (!Array.isArray(p.values)) throw mandatoryMissing(['values']);
    const set: Params = {};
    for (const [k, v] of Object.entries(p))
      if (!['values', 'sequential', 'options'].includes(k) && !k.startsWith('api.')) set[k] = v;
    const { rows: before } = await this.select(e, { ...set, return: ['id'] }, ctx, {
      limit: 0,
      offset: 0,
      sequential: true,
    });
    const kept = new Set<number>();
    const saved: Row[] = [];
    for (const item of p.values as Params[]) {
      const row = await this.save(e, { ...set, ...item }, ctx);
      kept.add(Number(row.id));
      saved.push(this.wire(e, row));
    }
    for (const r of before) {
      if (!kept.has(Number(r.id))) await this.delete(e, { id: Number(r.id) }, ctx);
    }
    return envelope(saved, { sequential: truthy(p.sequential) });
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

  async setvalue(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const missing = ['id', 'field'].filter((k) => p[k] === undefined || p[k] === '');
    if (!('value' in p)) missing.push('value');
    if (missing.length)
      throw api3Error(
        'E_INVALID_PARAMS',
        'required',
        `Mandatory key(s) missing from params array: ${missing.join(', ')}`,
        { fields: missing },
      );
    const id = this.idOf(e, p)!;
    const f = e.lookup.get(String(p.field));
    if (!f || f.readonly || f.related || f.labelOf || f.via || f.name === 'id')
      throw api3Error(
        'E_INVALID_PARAMS',
        'invalid_field',
        `Param 'field' (${String(p.field)}) is invalid. must be an existing field`,
        { field: String(p.field) },
      );
    if (f.type === 'Int' && p.value !== null && p.value !== '' && !/^-?\d+$/.test(String(p.value))) {
      throw api3Error('E_INVALID_PARAMS', 'NaN', `Param '${f.name}' must be a number`, { field: f.name });
    }
    if (f.required && (p.value === null || p.value === ''))
      throw api3Error('E_INVALID_PARAMS', 'required', `Param '${f.name}' is required`, { field: f.name });
    const row = await this.save(e, { id, [f.name]: p.value }, ctx);
    return {
      ...scalarEnvelope(stringifyLeaves({ id: row.id, [f.name]: row[f.name] })),
      deprecated: DEPRECATED.setvalue,
    };
  }

  async validate(e: CompiledEntity, p: Params, ctx: ActionContext): Promise<unknown> {
    const action = String(p.action ?? p.api_action ?? '');
    if (!action) throw mandatoryMissing(['action']);
    const errors: Record<string, { message: string; code: string }> = {};
    const params = { ...p };
    delete params.action;
    if (action === 'create') {
      const isUpdate = this.idOf(e, params) !== undefined;
      for (const [key, raw] of Object.entries(params)) {
        const f = e.lookup.get(key);
        if (!f || f.readonly || f.name === 'id' || raw === null || raw === '') continue;
        try {
          await this.values(e, { [key]: raw }, ctx, true);
        } catch (err) {
          errors[f.name] = { message: (err as Error).message, code: 'incorrect_value' };
        }
      }
      if (!isUpdate) {
        const vals: Row = {};
        for (const [k, v] of Object.entries(params)) {
          const f = e.lookup.get(k);
          if (f) vals[f.name] = v;
        }
        for (const f of e.fields)
          if (vals[f.name] === undefined && f.apiDefault !== undefined) vals[f.name] = f.apiDefault;
        for (const m of this.missing(e, vals))
          errors[m] ??= { message: `Mandatory key(s) missing from params array: ${m}`, code: 'mandatory_missing' };
      }
    }
    return envelope([errors as Row], { sequential: true });
  }
}
