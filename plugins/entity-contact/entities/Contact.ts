/** The Contact declaration (§7, §4). */
import type { EntityDef, FieldDef } from '../../entity-core';
import { primaryLocationFields } from './primary-fields';

const AC = 'access CRM';
const bool = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  apiDefault: 0,
  required: true,
  default: false,
  ...extra,
});
const str = (name: string, title: string, maxlength = 64, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'String',
  title,
  maxlength,
  ...extra,
});
/** Name columns searched with LIKE (see the lower_* indexes). */
const LIKE_SEARCHED = ['sort', 'display', 'first', 'last', 'nick', 'organization', 'household'].map((n) => `${n}_name`);
const ALWAYS_NAMED = ['sort_name', 'display_name'];

const Contact: EntityDef = {
  name: 'Contact',
  table: 'crm_contact',
  ownerField: 'id',
  labelField: 'sort_name',
  titleField: 'display_name',
  nulls: 'empty',
  uniqueNamesOnGet: true,
  fields: [
    { name: 'id', type: 'Int', title: 'Contact ID', required: true, uniqueName: 'contact_id' },
    {
      name: 'contact_type',
      type: 'String',
      title: 'Contact Type',
      maxlength: 64,
      apiRequired: true,
      optionGroup: 'contact_type',
    },
    {
      name: 'contact_sub_type',
      type: 'String',
      title: 'Contact Subtype',
      maxlength: 255,
      serialize: true,
      optionGroup: 'contact_sub_type',
    },
    bool('do_not_email', 'Do Not Email'),
    bool('do_not_phone', 'Do Not Phone'),
    bool('do_not_mail', 'Do Not Mail'),
    bool('do_not_sms', 'Do Not Sms'),
    bool('do_not_trade', 'Do Not Trade'),
    bool('is_opt_out', 'No Bulk Emails (User Opt Out)'),
    str('legal_identifier', 'Legal Identifier', 32),
    str('external_identifier', 'External Identifier', 64),
    str('sort_name', 'Sort Name', 128, { readonly: true }),
    str('display_name', 'Display Name', 128),
    str('nick_name', 'Nickname', 128),
    str('legal_name', 'Legal Name', 128),
    { name: 'image_URL', type: 'Text', title: 'Image Url' },
    {
      name: 'preferred_communication_method',
      type: 'String',
      title: 'Preferred Communication Method',
      maxlength: 255,
      serialize: true,
      optionGroup: 'preferred_communication_method',
    },
    { name: 'preferred_language', type: 'String', title: 'Preferred Language', maxlength: 5, optionGroup: 'languages' },
    {
      // Returned when asked for: the reference dropped it from the default Contact.get list after 5.41.
      name: 'preferred_mail_format',
      type: 'String',
      title: 'Preferred Mail Format',
      maxlength: 8,
      options: { Text: 'Text', HTML: 'HTML', Both: 'Both' },
      required: true,
      default: 'Both',
      apiDefault: 'Both',
    },
    { name: 'hash', type: 'String', title: 'Contact Hash', maxlength: 32, readonly: true },
    // Stored encrypted; the users plugin makes it a key that authenticates (only its hash is looked up).
    {
      name: 'api_key',
      type: 'Text',
      title: 'Api Key',
      maxlength: 32,
      secret: ['administer CRM', 'edit api keys'],
      encrypted: true,
    },
    str('source', 'Contact Source', 255, { uniqueName: 'contact_source' }),
    str('first_name', 'First Name'),
    str('middle_name', 'Middle Name'),
    str('last_name', 'Last Name'),
    {
      name: 'prefix_id',
      type: 'Int',
      title: 'Individual Prefix',
      optionGroup: 'individual_prefix',
      aliases: ['individual_prefix_id', 'individual_prefix'],
    },
    {
      name: 'suffix_id',
      type: 'Int',
      title: 'Individual Suffix',
      optionGroup: 'individual_suffix',
      aliases: ['individual_suffix_id', 'individual_suffix'],
    },
    str('formal_title', 'Formal Title'),
    {
      name: 'communication_style_id',
      type: 'Int',
      title: 'Communication Style',
      optionGroup: 'communication_style',
      aliases: ['communication_style'],
    },
    { name: 'email_greeting_id', type: 'Int', title: 'Email Greeting ID', optionGroup: 'email_greeting' },
    str('email_greeting_custom', 'Email Greeting Custom', 128),
    str('email_greeting_display', 'Email Greeting', 255),
    { name: 'postal_greeting_id', type: 'Int', title: 'Postal Greeting ID', optionGroup: 'postal_greeting' },
    str('postal_greeting_custom', 'Postal Greeting Custom', 128),
    str('postal_greeting_display', 'Postal Greeting', 255),
    { name: 'addressee_id', type: 'Int', title: 'Addressee ID', optionGroup: 'addressee' },
    str('addressee_custom', 'Addressee Custom', 128),
    str('addressee_display', 'Addressee', 255),
    str('job_title', 'Job Title', 255),
    { name: 'gender_id', type: 'Int', title: 'Gender ID', optionGroup: 'gender', aliases: ['gender'] },
    { name: 'birth_date', type: 'Date', title: 'Birth Date' },
    bool('is_deceased', 'Deceased'),
    { name: 'deceased_date', type: 'Date', title: 'Deceased Date' },
    str('household_name', 'Household Name', 128),
    str('organization_name', 'Organization Name', 128),
    str('sic_code', 'Sic Code', 8),
    str('user_unique_id', 'Unique ID (OpenID)', 255),
    {
      name: 'employer_id',
      type: 'Int',
      title: 'Current Employer',
      fk: 'Contact',
      onDelete: 'set null',
      uniqueName: 'current_employer_id',
    },
    {
      name: 'is_deleted',
      type: 'Boolean',
      title: 'Contact is in Trash',
      uniqueName: 'contact_is_deleted',
      apiDefault: 0,
      getDefault: 0,
      required: true,
      default: false,
    },
    { name: 'created_date', type: 'Timestamp', title: 'Created Date', readonly: true, default: { sql: 'now' } },
    { name: 'modified_date', type: 'Timestamp', title: 'Modified Date', readonly: true, default: { sql: 'now' } },
    ...primaryLocationFields,
    { name: 'current_employer', type: 'String', title: 'Current Employer', via: 'employer_id.organization_name' },
    // Labels of option fields.
    { name: 'individual_prefix', type: 'String', title: 'Individual Prefix', labelOf: 'prefix_id' },
    { name: 'individual_suffix', type: 'String', title: 'Individual Suffix', labelOf: 'suffix_id' },
    { name: 'communication_style', type: 'String', title: 'Communication Style', labelOf: 'communication_style_id' },
    { name: 'gender', type: 'String', title: 'Gender', labelOf: 'gender_id' },
  ],
  // The reference's default return list, in its order.
  defaultReturn: `
    contact_id contact_type contact_sub_type sort_name display_name do_not_email do_not_phone
    do_not_mail do_not_sms do_not_trade is_opt_out legal_identifier external_identifier nick_name
    legal_name image_URL preferred_communication_method preferred_language first_name middle_name
    last_name prefix_id suffix_id formal_title communication_style_id job_title gender_id birth_date
    is_deceased deceased_date household_name organization_name sic_code contact_is_deleted
    current_employer address_id street_address supplemental_address_1 supplemental_address_2
    supplemental_address_3 city postal_code_suffix postal_code geo_code_1 geo_code_2 state_province_id
    country_id phone_id phone_type_id phone email_id email on_hold individual_prefix individual_suffix
    communication_style gender id
  `
    .trim()
    .split(/\s+/),
  indexes: [
    { name: 'UI_external_identifier', fields: ['external_identifier'], unique: true },
    // The import's duplicate rule on external_identifier compares it case-insensitively (as the reference's
    // MySQL): one probe a key. Partial: the many contacts without one cost an insert nothing here.
    {
      name: 'lower_external_identifier',
      fields: ['lower(external_identifier)'],
      where: 'external_identifier is not null',
    },
    { name: 'sort_name', fields: ['sort_name'] },
    { name: 'display_name', fields: ['display_name'] },
    // The trash filter plus the default sort: a page of live contacts by sort_name reads the index in order.
    { name: 'deleted_sort_name', fields: ['is_deleted', 'sort_name', 'id'] },
    // Partial, as the name indexes below: most contacts have no employer (or no nick, organisation or household
    // name), and a NULL would cost every insert an index entry no query reads — an equality, IN, a join or LIKE
    // on the column implies it is not null, so PostgreSQL uses the partial index for them all.
    { name: 'employer_id', fields: ['employer_id'], where: 'employer_id is not null' },
    // LIKE compiles to `lower(col) LIKE lower(?)` (case-insensitive, as the reference's MySQL): these serve
    // prefix patterns whatever the collation, and carry the column and is_deleted so a count over a name
    // prefix (always filtered on is_deleted) is an index-only scan (~2 ms instead of 35–150 ms at 1M rows).
    ...LIKE_SEARCHED.map((column) => ({
      name: `lower_${column}`,
      fields: [`lower(${column})`],
      opclass: 'text_pattern_ops',
      include: [column, 'is_deleted'],
      // Every contact has a sort and display name; the other names are missing on many.
      ...(ALWAYS_NAMED.includes(column) ? {} : { where: `${column} is not null` }),
    })),
  ],
  permissions: {
    get: 'public',
    create: { allOf: [AC, 'add contacts'] },
    update: 'public',
    delete: { allOf: [AC, 'delete contacts'] },
    default: 'administer CRM',
    meta: AC,
  },
};

export default Contact;
