/** MailingGroup: a group (or an earlier mailing) whose contacts a mailing includes or excludes. */
import type { EntityDef } from '../../entity-core';
import { MAILING_PART_PERMISSIONS } from './permissions';

const MailingGroup: EntityDef = {
  name: 'MailingGroup',
  table: 'crm_mailing_group',
  description: 'Stores information about the groups that participate in this mailing',
  permissions: MAILING_PART_PERMISSIONS,
  fields: [
    { name: 'id', type: 'Int', title: 'Mailing Group ID', required: true, readonly: true },
    {
      name: 'mailing_id',
      type: 'Int',
      title: 'Mailing ID',
      required: true,
      apiRequired: true,
      fk: 'Mailing',
      onDelete: 'cascade',
    },
    {
      name: 'group_type',
      type: 'String',
      title: 'Mailing Group Type',
      maxlength: 8,
      apiDefault: 'Include',
      options: { Include: 'Include', Exclude: 'Exclude', Base: 'Base' },
    },
    {
      name: 'entity_table',
      type: 'String',
      title: 'Mailing Group Entity Table',
      maxlength: 64,
      required: true,
      apiDefault: 'civicrm_group',
      options: { civicrm_group: 'Group', civicrm_mailing: 'Mailing' },
    },
    {
      name: 'entity_id',
      type: 'Int',
      title: 'Mailing Group Entity',
      required: true,
      apiRequired: true,
      dynamicFk: { tableField: 'entity_table', entities: ['Group', 'Mailing'], onDelete: 'cascade' },
    },
    { name: 'search_id', type: 'Int', title: 'Mailing Group Search' },
    { name: 'search_args', type: 'Text', title: 'Mailing Group Search Arguments' },
  ],
};

export default MailingGroup;
