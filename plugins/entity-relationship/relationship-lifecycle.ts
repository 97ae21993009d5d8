/**
 * Relationship's rules, as the reference applies them (CRM/Contact/BAO/Relationship.php, api/v3/Relationship.php):
 * the legacy `relationship_type` name, contacts of the types the relationship type allows and never one
 * contact with itself (`Invalid Relationship`), no second relationship of the same type between the same two
 * contacts over overlapping dates (`Duplicate Relationship`), and APIv3 get's `contact_id` (either side).
 */
import { KernelError } from '../../kernel';
import { present, type Condition, type EntityRegistry, type SaveContext } from '../entity-core';

type Row = Record<string, unknown>;
const refused = (message: string) =>
  new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 'invalid value' } });

/** APIv3's legacy `relationship_type`: a type named from either side (`Employee of` or `Employer of`). */
async function typeFromName(values: Row, sc: SaveContext): Promise<void> {
  const name = sc.params.relationship_type;
  if (present(values.relationship_type_id) || !present(name)) return;
  const wanted = String(name).charAt(0).toUpperCase() + String(name).slice(1);
  const [type] = await sc.entities.get('RelationshipType', {
    where: [
      {
        or: [
          { path: 'name_a_b', op: '=', value: wanted },
          { path: 'name_b_a', op: '=', value: wanted },
        ],
      },
    ],
    select: ['id'],
  });
  if (type) values.relationship_type_id = type.id;
}

const subTypes = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : present(value) ? [String(value)] : [];

/** Each contact is of the type (and sub-type) the relationship type names for its side, and they differ. */
async function checkContacts(row: Row, sc: SaveContext): Promise<void> {
  const [idA, idB] = [Number(row.contact_id_a), Number(row.contact_id_b)];
  if (idA === idB) throw refused('Invalid Relationship');
  const [type] = await sc.entities.get('RelationshipType', { where: { id: Number(row.relationship_type_id) } });
  if (!type) throw refused('Invalid Relationship');
  const contacts = await sc.entities.get('Contact', {
    where: [
      { path: 'id', op: 'IN', value: [idA, idB] },
      { path: 'is_deleted', op: 'IN', value: [true, false] },
    ],
    select: ['id', 'contact_type', 'contact_sub_type'],
  });
  for (const [id, side] of [
    [idA, 'a'],
    [idB, 'b'],
  ] as const) {
    const contact = contacts.find((candidate) => Number(candidate.id) === id);
    if (!contact) throw refused('Invalid Relationship');
    const wantedType = type[`contact_type_${side}`];
    const wantedSub = type[`contact_sub_type_${side}`];
    if (present(wantedType) && contact.contact_type !== wantedType) throw refused('Invalid Relationship');
    if (present(wantedSub) && !subTypes(contact.contact_sub_type).includes(String(wantedSub)))
      throw refused('Invalid Relationship');
  }
}

/** Another relationship of the same type between the same two contacts (either way round) whose dates overlap. */
async function checkDuplicate(row: Row, sc: SaveContext): Promise<void> {
  const pair = (a: unknown, b: unknown): Condition => ({
    and: [
      { path: 'contact_id_a', op: '=', value: Number(a) },
      { path: 'contact_id_b', op: '=', value: Number(b) },
    ],
  });
  const where: Condition[] = [
    { path: 'relationship_type_id', op: '=', value: Number(row.relationship_type_id) },
    { or: [pair(row.contact_id_a, row.contact_id_b), pair(row.contact_id_b, row.contact_id_a)] },
  ];
  if (present(row.end_date))
    where.push({
      or: [
        { path: 'start_date', op: 'IS NULL' },
        { path: 'start_date', op: '<=', value: row.end_date },
      ],
    });
  if (present(row.start_date))
    where.push({
      or: [
        { path: 'end_date', op: 'IS NULL' },
        { path: 'end_date', op: '>=', value: row.start_date },
      ],
    });
  // A case role duplicates only a role on the same case (a coordinator may hold the role on several cases).
  if (present(row.case_id)) where.push({ path: 'case_id', op: '=', value: Number(row.case_id) });
  if (sc.existing) where.push({ path: 'id', op: '<>', value: Number(sc.existing.id) });
  if ((await sc.entities.count('Relationship', where)) > 0) throw refused('Duplicate Relationship');
}

export function extendRelationships(entities: EntityRegistry): void {
  entities.extend('Relationship', {
    params: ['relationship_type'],
    async beforeSave(values, sc) {
      const out = { ...values };
      await typeFromName(out, sc);
      const row = { ...sc.existing, ...out };
      const touched = ['contact_id_a', 'contact_id_b', 'relationship_type_id', 'start_date', 'end_date'];
      if (!sc.existing || touched.some((name) => out[name] !== undefined)) {
        if (present(row.contact_id_a) && present(row.contact_id_b) && present(row.relationship_type_id)) {
          await checkContacts(row, sc);
          await checkDuplicate(row, sc);
        }
      }
      if (sc.existing) out.modified_date = new Date();
      return out;
    },
    beforeGet(params, { api }) {
      // APIv3 `contact_id`: the contact's relationships, on either side.
      if (api !== 3 || !present(params.contact_id)) return undefined;
      const { contact_id: contactId, ...rest } = params;
      const id = Number(contactId);
      const where: Condition[] = [
        {
          or: [
            { path: 'contact_id_a', op: '=', value: id },
            { path: 'contact_id_b', op: '=', value: id },
          ],
        },
      ];
      return { params: rest, where };
    },
  });
}
