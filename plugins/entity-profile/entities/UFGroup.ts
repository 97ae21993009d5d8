/**
 * UFGroup: a profile, a named set of fields used as a form or a listing. `post_url`, `cancel_url` and
 * `add_to_group_id` are the profile's own settings (4.4.6: no longer hidden fields of the form).
 */
import type { EntityDef, FieldDef } from '../../entity-core';
import { PROFILE_ADMIN } from './permissions';

const flag = (name: string, title: string, value = false): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: value,
  apiDefault: value ? 1 : 0,
});

const UFGroup: EntityDef = {
  name: 'UFGroup',
  table: 'crm_uf_group',
  description: 'Profiles: named sets of contact (and other) fields used as forms and listings',
  labelField: 'title',
  permissions: PROFILE_ADMIN,
  fields: [
    { name: 'id', type: 'Int', title: 'Profile ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Profile Name', maxlength: 64, required: true },
    flag('is_active', 'Profile Is Active', true),
    {
      name: 'group_type',
      type: 'String',
      title: 'Profile Group Type',
      maxlength: 255,
      description: 'Comma-separated types of the profile fields (kept in step with its fields)',
    },
    { name: 'title', type: 'String', title: 'Profile Title', maxlength: 64, required: true, apiRequired: true },
    { name: 'frontend_title', type: 'String', title: 'Public Title', maxlength: 64 },
    { name: 'description', type: 'Text', title: 'Profile Description' },
    { name: 'help_pre', type: 'Text', title: 'Help Pre' },
    { name: 'help_post', type: 'Text', title: 'Profile Post Text' },
    { name: 'limit_listings_group_id', type: 'Int', title: 'Search Limit Group ID', fk: 'Group', onDelete: 'set null' },
    { name: 'post_url', type: 'String', title: 'Post Url', maxlength: 255, description: 'Redirect to URL on submit' },
    { name: 'add_to_group_id', type: 'Int', title: 'Add Contact To Group ID', fk: 'Group', onDelete: 'set null' },
    flag('add_captcha', 'Show Captcha On Profile'),
    flag('is_map', 'Map Profile'),
    flag('is_edit_link', 'Show Edit Link?'),
    flag('is_uf_link', 'Show Link to CMS User'),
    { ...flag('is_update_dupe', 'Update on Duplicate'), apiDefault: 1 },
    { name: 'cancel_url', type: 'String', title: 'Profile Cancel URL', maxlength: 255 },
    flag('is_cms_user', 'Create CMS User?'),
    { name: 'notify', type: 'Text', title: 'Notify on Profile Submit' },
    flag('is_reserved', 'Profile Is Reserved'),
    { name: 'created_id', type: 'Int', title: 'Created By Contact ID', fk: 'Contact', onDelete: 'set null' },
    { name: 'created_date', type: 'Timestamp', title: 'UF Group Created Date', default: { sql: 'now' } },
    flag('is_proximity_search', 'Include Proximity Search?'),
    { name: 'cancel_button_text', type: 'String', title: 'Cancel Button Text', maxlength: 64 },
    { name: 'submit_button_text', type: 'String', title: 'Submit Button Text', maxlength: 64 },
    flag('add_cancel_button', 'Include Cancel Button', true),
  ],
  indexes: [{ name: 'UI_name', fields: ['name'], unique: true }],
};

export default UFGroup;
