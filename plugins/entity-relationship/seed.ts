/** The reference's install relationship types (civicrm_data: names and labels from each side, contact types). */
import type { Knex } from 'knex';

type Seed = [nameAB: string, nameBA: string, description: string, typeA: string, typeB: string, reserved: boolean];

const TYPES: Seed[] = [
  ['Child of', 'Parent of', 'Parent/child relationship.', 'Individual', 'Individual', false],
  ['Spouse of', 'Spouse of', 'Spousal relationship.', 'Individual', 'Individual', false],
  ['Partner of', 'Partner of', 'Partner relationship.', 'Individual', 'Individual', false],
  ['Sibling of', 'Sibling of', 'Sibling relationship.', 'Individual', 'Individual', false],
  ['Employee of', 'Employer of', 'Employment relationship.', 'Individual', 'Organization', true],
  ['Volunteer for', 'Volunteer is', 'Volunteer relationship.', 'Individual', 'Organization', false],
  ['Head of Household for', 'Head of Household is', 'Head of household.', 'Individual', 'Household', true],
  ['Household Member of', 'Household Member is', 'Household membership.', 'Individual', 'Household', true],
  ['Case Coordinator is', 'Case Coordinator', 'Case Coordinator', 'Individual', 'Individual', false],
  ['Supervised by', 'Supervisor', 'Immediate workplace supervisor', 'Individual', 'Individual', false],
];

export async function seedRelationshipTypes(knex: Knex): Promise<void> {
  await knex('crm_relationship_type').insert(
    TYPES.map(([nameAB, nameBA, description, typeA, typeB, reserved]) => ({
      name_a_b: nameAB,
      label_a_b: nameAB,
      name_b_a: nameBA,
      label_b_a: nameBA,
      description,
      contact_type_a: typeA,
      contact_type_b: typeB,
      is_reserved: reserved,
    })),
  );
}
