/**
 * An address's state or province named by code or name (APIv3 `state_province_id: "CA"`) is looked up in
 * the address's own country, as the reference does: the plain option lookup matches the first subdivision
 * with that code anywhere, which may be another country's.
 */
import { KernelError } from '../../kernel';
import type { EntityLifecycle, SaveContext } from '../entity-core';

type Row = Record<string, unknown>;
const named = (value: unknown): value is string => typeof value === 'string' && !/^\d+$/.test(value.trim());

async function stateInCountry(values: Row, sc: SaveContext): Promise<void> {
  const given = sc.params.state_province_id ?? sc.params.state_province;
  const country = values.country_id ?? sc.existing?.country_id;
  if (!named(given) || country === undefined || country === null) return;
  const text = given.trim();
  const [state] = await sc.entities.get('StateProvince', {
    where: [
      { path: 'country_id', op: '=', value: Number(country) },
      {
        or: [
          { path: 'abbreviation', op: '=', value: text },
          { path: 'name', op: '=', value: text },
        ],
      },
    ],
    select: ['id'],
  });
  if (!state)
    throw new KernelError('E_INVALID_PARAMS', `'${text}' is not a valid option for field state_province_id`, {
      details: { error_code: 2001, error_field: 'state_province_id' },
    });
  values.state_province_id = state.id;
}

export const addressPlaces: EntityLifecycle = {
  // A state named in its country (the import passes it so, and APIv3 `state_province`).
  params: ['state_province'],
  async beforeSave(values, sc) {
    const out = { ...values };
    await stateInCountry(out, sc);
    return out;
  },
};
