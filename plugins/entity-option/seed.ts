/** Seed data of entity-option's first migration (values as in the reference's install data). */
import type { Knex } from 'knex';

/** One option: its value, name and label (the name when absent). */
export type OptionSeed = [value: number | string, name: string, label?: string];

/** Option groups to seed, by group name. */
export type OptionGroupSeeds = Record<string, { title: string; values: OptionSeed[] }>;

/** Seeded option groups (values as in the reference's install data). */
const GROUPS: OptionGroupSeeds = {
  gender: {
    title: 'Gender',
    values: [
      [1, 'Female'],
      [2, 'Male'],
      [3, 'Other'],
    ],
  },
  individual_prefix: {
    title: 'Individual contact prefixes',
    values: [
      [1, 'Mrs.'],
      [2, 'Ms.'],
      [3, 'Mr.'],
      [4, 'Dr.'],
    ],
  },
  individual_suffix: {
    title: 'Individual contact suffixes',
    values: [
      [1, 'Jr.'],
      [2, 'Sr.'],
      [3, 'II'],
      [4, 'III'],
      [5, 'IV'],
      [6, 'V'],
      [7, 'VI'],
      [8, 'VII'],
    ],
  },
  phone_type: {
    title: 'Phone Type',
    values: [
      [1, 'Phone'],
      [2, 'Mobile'],
      [3, 'Fax'],
      [4, 'Pager'],
      [5, 'Voicemail'],
    ],
  },
  website_type: {
    title: 'Website Type',
    values: [
      [1, 'Work'],
      [2, 'Main'],
      [3, 'Facebook'],
      [5, 'Instagram'],
      [6, 'LinkedIn'],
      [7, 'MySpace'],
      [8, 'Pinterest'],
      [9, 'SnapChat'],
      [10, 'Tumblr'],
      [11, 'Twitter'],
      [12, 'Vine'],
    ],
  },
  preferred_communication_method: {
    title: 'Preferred Communication Method',
    values: [
      [1, 'Phone'],
      [2, 'Email'],
      [3, 'Postal Mail', 'Postal Mail'],
      [4, 'SMS'],
      [5, 'Fax'],
    ],
  },
  communication_style: {
    title: 'Communication Style',
    values: [
      [1, 'formal', 'Formal'],
      [2, 'familiar', 'Familiar'],
    ],
  },
  contact_type: {
    title: 'Contact Type',
    values: [
      ['Individual', 'Individual'],
      ['Organization', 'Organization'],
      ['Household', 'Household'],
    ],
  },
  // grouping = the parent contact type.
  contact_sub_type: {
    title: 'Contact Sub Type',
    values: [
      ['Student', 'Student'],
      ['Parent', 'Parent'],
      ['Staff', 'Staff'],
      ['Team', 'Team'],
      ['Sponsor', 'Sponsor'],
    ],
  },
  email_greeting: {
    title: 'Email Greeting Type',
    values: [
      [1, 'Dear {contact.first_name}'],
      [2, 'Dear {contact.prefix_id:label} {contact.first_name} {contact.last_name}'],
      [3, 'Dear {contact.prefix_id:label} {contact.last_name}'],
      [4, 'Customized'],
    ],
  },
  postal_greeting: {
    title: 'Postal Greeting Type',
    values: [
      [1, 'Dear {contact.first_name}'],
      [2, 'Dear {contact.prefix_id:label} {contact.first_name} {contact.last_name}'],
      [3, 'Dear {contact.prefix_id:label} {contact.last_name}'],
      [4, 'Customized'],
    ],
  },
  addressee: {
    title: 'Addressee Type',
    values: [
      [
        1,
        '{contact.prefix_id:label}{ }{contact.first_name}{ }{contact.middle_name}{ }{contact.last_name}{ }{contact.suffix_id:label}',
      ],
      [2, '{contact.household_name}'],
      [3, '{contact.organization_name}'],
      [4, 'Customized'],
    ],
  },
  mobile_provider: {
    title: 'Mobile Phone Providers',
    values: [
      [1, 'Sprint'],
      [2, 'Verizon'],
      [3, 'Cingular'],
    ],
  },
  languages: {
    title: 'Languages',
    values: [
      ['en_US', 'en', 'English (United States)'],
      ['en_GB', 'en_GB', 'English (United Kingdom)'],
      ['fr_FR', 'fr', 'French (France)'],
      ['de_DE', 'de', 'German'],
      ['es_ES', 'es', 'Spanish; Castilian (Spain)'],
      ['nl_NL', 'nl', 'Dutch (Netherlands)'],
    ],
  },
};
const SUBTYPE_PARENT: Record<string, string> = {
  Student: 'Individual',
  Parent: 'Individual',
  Staff: 'Individual',
  Team: 'Organization',
  Sponsor: 'Organization',
};

/** The reference's install data: location types and the option groups the contact fields use. */
export async function seedOptions(knex: Knex): Promise<void> {
  await knex('crm_location_type').insert([
    {
      name: 'Home',
      display_name: 'Home',
      vcard_name: 'HOME',
      description: 'Place of residence',
      is_reserved: false,
      is_active: true,
      is_default: true,
    },
    { name: 'Work', display_name: 'Work', vcard_name: 'WORK', description: 'Work location', is_default: false },
    { name: 'Main', display_name: 'Main', description: 'Main office location' },
    { name: 'Other', display_name: 'Other', description: 'Other location' },
    {
      name: 'Billing',
      display_name: 'Billing',
      vcard_name: 'BILLING',
      description: 'Billing Address location',
      is_reserved: true,
    },
  ]);
  await seedOptionGroups(knex, GROUPS, { contact_sub_type: SUBTYPE_PARENT });
}

/**
 * Inserts option groups and their values (reserved, weighted in the given order); `grouping` sets the
 * `grouping` column by value name per group (a sub-type's parent type). Other plugins seed theirs with it.
 */
export async function seedOptionGroups(
  knex: Knex,
  groups: OptionGroupSeeds,
  grouping: Record<string, Record<string, string>> = {},
): Promise<void> {
  for (const [name, group] of Object.entries(groups)) {
    const [{ id }] = (await knex('crm_option_group')
      .insert({
        name,
        title: group.title,
        is_reserved: true,
        data_type: typeof group.values[0][0] === 'number' ? 'Integer' : 'String',
      })
      .returning('id')) as Array<{ id: number }>;
    await knex('crm_option_value').insert(
      group.values.map(([value, vname, label], i) => ({
        option_group_id: id,
        value: String(value),
        name: vname,
        label: label ?? vname,
        weight: i + 1,
        is_reserved: true,
        grouping: grouping[name]?.[vname] ?? null,
      })),
    );
  }
}
