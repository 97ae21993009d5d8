/**
 * Checks a new or changed contact makes against other contacts: the `dupe_check=1` duplicate rule, and
 * `current_employer`, which finds or creates the employer organisation.
 */
import { api3Error, invalid } from '../api3';
import type { SaveContext } from '../entity-core';
import { has, type Row } from './row-values';

/** `dupe_check=1`: the unsupervised rule — same names (and primary email when given) among live contacts. */
export async function dupeCheck(values: Row, sc: SaveContext): Promise<void> {
  const query = sc
    .db('crm_contact as c')
    .where('c.is_deleted', false)
    .andWhere('c.contact_type', values.contact_type as string);
  if (values.contact_type === 'Organization') query.andWhere('c.organization_name', values.organization_name as string);
  else if (values.contact_type === 'Household') query.andWhere('c.household_name', values.household_name as string);
  else {
    const email = typeof sc.params.email === 'string' ? sc.params.email.trim().toLowerCase() : '';
    if (!has(values.first_name) && !has(values.last_name) && !email) return;
    for (const field of ['first_name', 'last_name'])
      if (has(values[field])) query.andWhere(`c.${field}`, values[field] as string);
    if (email) query.whereExists(sc.db('crm_email as e').whereRaw('e.contact_id = c.id').andWhere('e.email', email));
  }
  const ids = ((await query.select('c.id').orderBy('c.id')) as Array<{ id: number }>).map((r) => r.id);
  if (ids.length)
    throw api3Error('E_API3_DUPLICATE', 'duplicate', `Found matching contacts: ${ids.join(',')}`, {
      ids: ids.map(String),
    });
}

/** `current_employer` (a name): finds or creates the organisation (§4.1). */
export async function employerId(name: string, given: unknown, sc: SaveContext): Promise<number> {
  const found = await sc.entities.get('Contact', {
    where: { contact_type: 'Organization', organization_name: name },
    select: ['id'],
    limit: 2,
  });
  if (found.length > 1) throw invalid('Found more than one Organisation with same Name.');
  const id = found.length
    ? Number(found[0].id)
    : Number((await sc.entities.save('Contact', { contact_type: 'Organization', organization_name: name })).id);
  if (has(given) && Number(given) !== id) throw invalid('Employer name and Employer id Mismatch');
  return id;
}

/**
 * The legacy `home_url` (also spelled `home_URL`) of APIv3 Contact.create: stored as a Website of the first
 * website type, as the reference does, rather than dropped.
 */
export async function saveHomeUrl(row: Row, sc: SaveContext): Promise<void> {
  const url = sc.params.home_url ?? sc.params.home_URL;
  if (typeof url !== 'string' || !url.trim()) return;
  const [type] = await sc.entities.get('OptionValue', {
    where: { 'option_group_id.name': 'website_type', is_active: true },
    select: ['value'],
    orderBy: [{ path: 'weight', dir: 'ASC' }],
    limit: 1,
  });
  await sc.entities.save('Website', { contact_id: row.id, url: url.trim(), website_type_id: type?.value ?? null });
}
