/**
 * CiviCase's install data as the reference seeds it: case statuses (with their Opened/Closed grouping), the
 * sample case types (housing_support, adult_day_care_referral) with their activity types and role
 * relationship types, each added where missing.
 */
import type { Knex } from 'knex';
import { seedOptionGroups, type OptionGroupSeeds } from '../entity-option';
import type { CaseDefinition } from './definition';

export const CASE_OPTION_GROUPS: OptionGroupSeeds = {
  case_status: {
    title: 'Case Status',
    values: [
      [1, 'Open', 'Ongoing'],
      [2, 'Closed', 'Resolved'],
      [3, 'Urgent'],
    ],
  },
};
const STATUS_GROUPING = { case_status: { Open: 'Opened', Closed: 'Closed', Urgent: 'Opened' } };

const MANAGEMENT = ['Follow up', 'Change Case Type', 'Change Case Status', 'Change Case Start Date', 'Link Cases'];
const step = (name: string, offset?: number, status?: string) => ({
  name,
  ...(offset === undefined ? {} : { reference_activity: 'Open Case', reference_offset: String(offset) }),
  ...(offset === undefined ? {} : { reference_select: 'newest' }),
  ...(status ? { status } : {}),
});
const roles = (coordinator: string) => [
  { name: coordinator, creator: '1', manager: '1' },
  { name: 'Health Services Coordinator' },
  { name: 'Benefits Specialist' },
];

const HOUSING: CaseDefinition = {
  activityTypes: [
    { name: 'Open Case', max_instances: '1' },
    ...['Medical evaluation', 'Mental health evaluation', 'Secure temporary housing'].map((name) => ({ name })),
    ...['Income and benefits stabilization', 'Long-term housing plan', ...MANAGEMENT].map((name) => ({ name })),
  ],
  activitySets: [
    {
      name: 'standard_timeline',
      label: 'Standard Timeline',
      timeline: '1',
      activityTypes: [
        step('Open Case', undefined, 'Completed'),
        step('Medical evaluation', 1),
        step('Mental health evaluation', 1),
        step('Secure temporary housing', 2),
        step('Follow up', 3),
        step('Income and benefits stabilization', 7),
        step('Long-term housing plan', 14),
        step('Follow up', 21),
      ],
    },
  ],
  caseRoles: roles('Homeless Services Coordinator'),
};

const ADULT_DAY_CARE: CaseDefinition = {
  activityTypes: [
    { name: 'Open Case', max_instances: '1' },
    ...['Medical evaluation', 'Mental health evaluation', 'ADC referral', ...MANAGEMENT].map((name) => ({ name })),
  ],
  activitySets: [
    {
      name: 'standard_timeline',
      label: 'Standard Timeline',
      timeline: '1',
      activityTypes: [
        step('Open Case', undefined, 'Completed'),
        step('Medical evaluation', 3),
        step('Mental health evaluation', 7),
        step('ADC referral', 10),
        step('Follow up', 14),
      ],
    },
  ],
  caseRoles: roles('Senior Services Coordinator'),
};

const CASE_TYPES: Array<[name: string, title: string, definition: CaseDefinition]> = [
  ['housing_support', 'Housing Support', HOUSING],
  ['adult_day_care_referral', 'Adult Day Care Referral', ADULT_DAY_CARE],
];

const ROLE_TYPES = [
  'Homeless Services Coordinator',
  'Health Services Coordinator',
  'Senior Services Coordinator',
  'Benefits Specialist',
];

/** Activity types the sample case types use that the core install lacks, numbered after the last one. */
async function seedActivityTypes(knex: Knex): Promise<void> {
  const group = (await knex('crm_option_group').where({ name: 'activity_type' }).first('id')) as { id: number };
  const names = new Set(CASE_TYPES.flatMap(([, , definition]) => definition.activityTypes!.map((type) => type.name)));
  const existing = (await knex('crm_option_value')
    .where({ option_group_id: group.id })
    .select('name', 'value')) as Array<{
    name: string;
    value: string;
  }>;
  const known = new Set(existing.map((row) => row.name));
  let next = Math.max(0, ...existing.map((row) => Number(row.value) || 0)) + 1;
  const missing = [...names].filter((name) => !known.has(name));
  if (!missing.length) return;
  await knex('crm_option_value').insert(
    missing.map((name) => ({ option_group_id: group.id, name, label: name, value: String(next), weight: next++ })),
  );
}

export async function seedCases(knex: Knex): Promise<void> {
  await seedOptionGroups(knex, CASE_OPTION_GROUPS, STATUS_GROUPING);
  await seedActivityTypes(knex);
  // The case roles' relationship types: the client (A) "<role> is" the holder (B), the role's name.
  const roleTypes = (await knex('crm_relationship_type').whereIn('name_b_a', ROLE_TYPES).select('name_b_a')) as Array<{
    name_b_a: string;
  }>;
  const present = new Set(roleTypes.map((row) => row.name_b_a));
  const missingRoles = ROLE_TYPES.filter((role) => !present.has(role));
  if (missingRoles.length)
    await knex('crm_relationship_type').insert(
      missingRoles.map((role) => ({
        name_a_b: `${role} is`,
        label_a_b: `${role} is`,
        name_b_a: role,
        label_b_a: role,
        description: role,
        contact_type_a: 'Individual',
        contact_type_b: 'Individual',
        is_reserved: false,
      })),
    );
  await knex('crm_case_type').insert(
    CASE_TYPES.map(([name, title, definition], i) => ({
      name,
      title,
      is_active: true,
      is_reserved: false,
      weight: i + 1,
      definition: JSON.stringify(definition),
    })),
  );
}
