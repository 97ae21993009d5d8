/**
 * The baseline's queries, written by hand: the pages the service's read scenarios answer, each a bare SQL
 * statement the baseline server runs and frames as the same API envelope.
 */

/** The default Contact.get page (the reference's default return list: contact columns, current employer,
 * the primary address with its state and country ids, phone and email), 25 rows sorted by sort_name, with an optional extra condition. */
function contactPage(extraWhere = ''): string {
  return `
  select c.id, c.id as contact_id, c.contact_type, c.contact_sub_type, c.sort_name, c.display_name,
         c.do_not_email, c.do_not_phone, c.do_not_mail, c.do_not_sms, c.do_not_trade, c.is_opt_out,
         c.legal_identifier, c.external_identifier, c.nick_name, c.legal_name, c."image_URL",
         c.preferred_communication_method, c.preferred_language, c.first_name, c.middle_name, c.last_name,
         c.prefix_id, c.suffix_id, c.formal_title, c.communication_style_id, c.job_title, c.gender_id,
         c.birth_date, c.is_deceased, c.deceased_date, c.household_name, c.organization_name, c.sic_code,
         c.is_deleted as contact_is_deleted, emp.organization_name as current_employer,
         a.id as address_id, a.street_address, a.supplemental_address_1, a.supplemental_address_2,
         a.supplemental_address_3, a.city, a.postal_code_suffix, a.postal_code, a.geo_code_1, a.geo_code_2,
         a.state_province_id, a.country_id, p.id as phone_id, p.phone_type_id, p.phone, e.id as email_id,
         e.email, e.on_hold
  from crm_contact c
  left join crm_contact emp on emp.id = c.employer_id
  left join crm_address a on a.contact_id = c.id and a.is_primary = true
  left join crm_phone p on p.contact_id = c.id and p.is_primary = true
  left join crm_email e on e.contact_id = c.id and e.is_primary = true
  where c.is_deleted = $1 ${extraWhere}
  order by c.sort_name, c.id
  limit $2`;
}

export const CONTACT_PAGE_SQL = contactPage();
export const CONTACT_PAGE_PARAMS = [false, 25];

/** Ids the seed made that the pages filter on. */
export interface BenchIds {
  groupId?: number;
  /** Where the bench custom fields are stored (bench/seed-custom.ts), when custom-data made them. */
  custom?: Array<{ path: string; table: string; column: string }>;
}

export interface BaselinePage {
  /** The statement; a function when it names tables the service made at run time (custom data). */
  sql: string | ((ids: BenchIds) => string);
  params(ids: BenchIds): unknown[];
  /** APIv3 (values keyed by id, every value a string) or APIv4 (a list of records as stored). */
  shape: 'api3' | 'api4';
}

/** Baseline path → page. A scenario names its page with `baseline` (default `/contacts`). */
export const BASELINE_PAGES: Record<string, BaselinePage> = {
  '/contacts': { sql: CONTACT_PAGE_SQL, params: () => CONTACT_PAGE_PARAMS, shape: 'api3' },
  // APIv4 Contact.get with the primary email through `email_primary.email`.
  '/contacts-email-primary': {
    sql: `
  select c.id, c.display_name, e.email as "email_primary.email"
  from crm_contact c
  left join crm_email e on e.contact_id = c.id and e.is_primary = true
  where c.is_deleted = $1
  order by c.sort_name, c.id
  limit $2`,
    params: () => [false, 25],
    shape: 'api4',
  },
  // APIv4 Activity.get with its source and target contacts (entity-activity's collection fields).
  '/activities': {
    sql: `
  select a.id, a.subject, a.activity_type_id, a.status_id,
         (select ac.contact_id from crm_activity_contact ac
           where ac.activity_id = a.id and ac.record_type_id = 2 order by ac.id limit 1) as source_contact_id,
         (select array_agg(ac.contact_id order by ac.id) from crm_activity_contact ac
           where ac.activity_id = a.id and ac.record_type_id = 3) as target_contact_id
  from crm_activity a
  order by a.id
  limit $1`,
    params: () => [25],
    shape: 'api4',
  },
  // APIv4 Contribution.get with the financial type's label and the contributor's name (entity-contribute).
  '/contributions': {
    sql: `
  select co.id, co.total_amount, ft.name as "financial_type_id:label", c.display_name as "contact_id.display_name"
  from crm_contribution co
  left join crm_financial_type ft on ft.id = co.financial_type_id
  left join crm_contact c on c.id = co.contact_id
  order by co.id
  limit $1`,
    params: () => [25],
    shape: 'api4',
  },
  // APIv4 Contact.autocomplete {input: 'jones'}: the first page of 15 by display name, and how many match.
  '/contacts-autocomplete': {
    sql: `
  select id, display_name as label, count(*) over () as "countMatched"
  from crm_contact
  where is_deleted = $1 and lower(sort_name) like lower($2)
  order by display_name, id
  limit $3`,
    params: () => [false, '%jones%', 15],
    shape: 'api4',
  },
  // APIv4 Contact.get COUNT(id) grouped by contact_type: one row per type over every live contact.
  '/contacts-by-type': {
    sql: `
  select contact_type, count(id) as n
  from crm_contact
  where is_deleted = $1
  group by contact_type
  order by contact_type`,
    params: () => [false],
    shape: 'api4',
  },
  // Contact.get {group: id}: the members Added to one group.
  '/contacts-in-group': {
    sql: contactPage(
      `and exists (select 1 from crm_group_contact gc where gc.contact_id = c.id and gc.group_id = $3 and gc.status = 'Added')`,
    ),
    params: (ids) => [false, 25, ids.groupId],
    shape: 'api3',
  },
  // APIv4 Contact.get of ten custom fields in three groups (one LEFT JOIN each), filtered on one of them.
  '/contacts-custom': {
    sql: (ids) => {
      const custom = ids.custom ?? [];
      const tables = [...new Set(custom.map((field) => field.table))];
      const alias = (table: string) => `g${tables.indexOf(table)}`;
      const tier = custom.find((field) => field.path === 'Bench_A.Tier');
      return `
  select c.id, c.display_name, ${custom.map((f) => `${alias(f.table)}."${f.column}" as "${f.path}"`).join(', ')}
  from crm_contact c
  ${tables.map((table) => `left join "${table}" ${alias(table)} on ${alias(table)}.entity_id = c.id`).join('\n  ')}
  where c.is_deleted = $1 and ${tier ? `${alias(tier.table)}."${tier.column}"` : 'null'} = $3
  order by c.sort_name, c.id
  limit $2`;
    },
    params: () => [false, 25, 'Gold'],
    shape: 'api4',
  },
};
