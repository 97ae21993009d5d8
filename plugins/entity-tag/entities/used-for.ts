/** The reference's `tag_used_for` options: the tables a tag may be attached to (values are reference table names). */
export const TAG_USED_FOR: Record<string, string> = {
  civicrm_contact: 'Contacts',
  civicrm_activity: 'Activities',
  civicrm_case: 'Cases',
  civicrm_file: 'Attachments',
};
