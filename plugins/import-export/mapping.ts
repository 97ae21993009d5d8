/**
 * Column mapping of an import: each CSV header to a target — a Contact field, `email`, `phone`,
 * `address.<field>`, `groups`, `tags`, a custom field (`custom_12` or `Group.field`) or nothing — given
 * (`--map`) or guessed from the headers (field names and titles). An unknown target refuses the whole file.
 */
import { KernelError } from '../../kernel';
import type { EntityRegistry, Entities, FieldDef } from '../entity-core';

export type Target =
  | { kind: 'contact'; field: string }
  | { kind: 'email' }
  | { kind: 'phone' }
  | { kind: 'address'; field: string }
  | { kind: 'groups' }
  | { kind: 'tags' }
  | { kind: 'custom'; key: string; v4: string };

/** Every target a column may name, by its canonical spelling. */
export interface Catalogue {
  targets: Map<string, Target>;
  /** Normalised field names, titles and usual header spellings → canonical target. */
  guesses: Map<string, string>;
}

const norm = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

const isWritable = (field: FieldDef) =>
  !field.readonly && !field.related && !field.labelOf && !field.via && field.name !== 'id';

const ALIASES: Record<string, string> = {
  e_mail: 'email',
  email_address: 'email',
  phone_number: 'phone',
  telephone: 'phone',
  group: 'groups',
  tag: 'tags',
  street: 'address.street_address',
  address: 'address.street_address',
  zip: 'address.postal_code',
  postcode: 'address.postal_code',
  country: 'address.country_id',
  state: 'address.state_province_id',
  state_province: 'address.state_province_id',
  external_id: 'external_identifier',
};

/** Reads what Contact and Address accept, and the custom fields on contacts when custom-data is enabled. */
export async function catalogue(registry: EntityRegistry, entities: Entities): Promise<Catalogue> {
  const targets = new Map<string, Target>();
  const guesses = new Map<string, string>();
  const add = (key: string, target: Target, ...spellings: string[]) => {
    targets.set(key, target);
    for (const spelling of [key, ...spellings]) if (!guesses.has(norm(spelling))) guesses.set(norm(spelling), key);
  };
  for (const [key, target] of [
    ['email', { kind: 'email' }],
    ['phone', { kind: 'phone' }],
    ['groups', { kind: 'groups' }],
    ['tags', { kind: 'tags' }],
  ] as Array<[string, Target]>)
    add(key, target);
  for (const field of registry.get('Contact').fields.filter(isWritable))
    add(field.name, { kind: 'contact', field: field.name }, field.title ?? '');
  for (const field of registry.get('Address').fields.filter(isWritable))
    if (field.name !== 'contact_id')
      add(`address.${field.name}`, { kind: 'address', field: field.name }, field.name, field.title ?? '');
  for (const [alias, key] of Object.entries(ALIASES)) if (!guesses.has(alias)) guesses.set(alias, key);
  if (registry.find('CustomField')) {
    const fields = await entities.get('CustomField', {
      select: ['id', 'name', 'label', 'custom_group_id.name', 'custom_group_id.extends'],
      where: { is_active: true },
    });
    for (const field of fields) {
      if (!['Contact', 'Individual', 'Organization', 'Household'].includes(String(field['custom_group_id.extends'])))
        continue;
      const v4 = `${String(field['custom_group_id.name'])}.${String(field.name)}`;
      const key = `custom_${String(field.id)}`;
      add(v4, { kind: 'custom', key, v4 }, key, String(field.label ?? ''));
      targets.set(key, { kind: 'custom', key, v4 });
    }
  }
  return { targets, guesses };
}

/** Resolved mapping: one target (or none) per column, by position. */
export type Mapping = Array<Target | null>;

/** A given mapping (header → target, `null`/"" to skip): every target must exist, every header be in the file. */
export function givenMapping(headers: string[], given: Record<string, unknown>, cat: Catalogue): Mapping {
  const unknownHeaders = Object.keys(given).filter((header) => !headers.includes(header));
  if (unknownHeaders.length)
    throw new KernelError('E_INVALID_PARAMS', `The mapping names columns the file lacks: ${unknownHeaders.join(', ')}`);
  const bad = Object.entries(given).filter(
    ([, target]) => target !== null && target !== '' && (typeof target !== 'string' || !cat.targets.has(target)),
  );
  if (bad.length)
    throw new KernelError(
      'E_INVALID_PARAMS',
      `The mapping names unknown fields: ${bad.map(([header, target]) => `${header} → ${String(target)}`).join(', ')}`,
    );
  return headers.map((header) => {
    const target = given[header];
    return typeof target === 'string' && target ? cat.targets.get(target)! : null;
  });
}

/** A mapping guessed from the headers: a target's name, title or a usual spelling; the rest are left out. */
export function guessedMapping(headers: string[], cat: Catalogue): Mapping {
  return headers.map((header) => {
    const key = cat.targets.has(header) ? header : cat.guesses.get(norm(header));
    return key ? cat.targets.get(key)! : null;
  });
}

/** One line per column, for the summary: `Header → target` or `Header (ignored)`. */
export function describeMapping(headers: string[], mapping: Mapping): string[] {
  return headers.map((header, i) => {
    const target = mapping[i];
    if (!target) return `${header} (ignored)`;
    const name = 'field' in target ? target.field : 'key' in target ? target.key : target.kind;
    return `${header} → ${target.kind === 'address' ? `address.${name}` : name}`;
  });
}

/** Two columns on one single-valued target would make one of them silently lost: refused. */
export function checkMapping(headers: string[], mapping: Mapping): void {
  const seen = new Map<string, string>();
  for (const [i, target] of mapping.entries()) {
    if (!target || target.kind === 'groups' || target.kind === 'tags') continue;
    const key = JSON.stringify(target);
    if (seen.has(key))
      throw new KernelError('E_INVALID_PARAMS', `Columns ${seen.get(key)} and ${headers[i]} map to the same field`);
    seen.set(key, headers[i]);
  }
  if (!mapping.some(Boolean)) throw new KernelError('E_INVALID_PARAMS', 'No column maps to a contact field');
}
