/**
 * The reference data: the reference's world regions, and every ISO 3166-1 country and ISO 3166-2 subdivision
 * from the `iso-3166` package (maintained, MIT; ADR 0013), inserted in batches.
 */
import type { Knex } from 'knex';
import { iso31661, iso31662 } from 'iso-3166';

/** The reference's world regions, with its ids. */
export const WORLD_REGIONS: Array<[number, string]> = [
  [1, 'Europe and Central Asia'],
  [2, 'America South, Central, North and Caribbean'],
  [3, 'Middle East and North Africa'],
  [4, 'Asia-Pacific'],
  [5, 'Africa West, East, Central and Southern'],
  [99, 'unassigned'],
];

const BATCH = 1000;

export async function seedGeography(knex: Knex): Promise<void> {
  await knex('crm_worldregion').insert(WORLD_REGIONS.map(([id, name]) => ({ id, name })));
  await knex.raw(`select setval(pg_get_serial_sequence('crm_worldregion', 'id'), 99)`);
  const countries = (await knex('crm_country')
    .insert(iso31661.map((country) => ({ name: country.name, iso_code: country.alpha2 })))
    .returning(['id', 'iso_code'])) as Array<{ id: number; iso_code: string }>;
  const countryId = new Map(countries.map((row) => [row.iso_code, row.id]));
  const states = iso31662
    .map((state) => {
      const [code, abbreviation] = state.code.split('-');
      return { name: state.name.slice(0, 64), abbreviation, country_id: countryId.get(code) };
    })
    .filter((state) => state.country_id !== undefined);
  for (let from = 0; from < states.length; from += BATCH)
    await knex('crm_state_province').insert(states.slice(from, from + BATCH));
}
