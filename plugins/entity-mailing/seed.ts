/** What a new installation has: the approval statuses and one default component of each type. */
import type { Knex } from 'knex';
import { seedOptionGroups, type OptionGroupSeeds } from '../entity-option';

export const MAILING_OPTION_GROUPS: OptionGroupSeeds = {
  mail_approval_status: {
    title: 'CiviMail Approval Status',
    values: [
      [1, 'Approved'],
      [2, 'Rejected'],
      [3, 'None'],
    ],
  },
};

/** [name, type, subject, html, text]: the reference's default components (texts are ours). */
const COMPONENTS: Array<[string, string, string, string, string]> = [
  [
    'Mailing Header',
    'Header',
    'Descriptive Title for this Header',
    '<p>Header of the mailing</p>',
    'Header of the mailing',
  ],
  [
    'Mailing Footer',
    'Footer',
    'Descriptive Title for this Footer.',
    '<p>To stop receiving these mailings: <a href="{action.optOutUrl}">opt out</a></p>',
    'To stop receiving these mailings: {action.optOutUrl}',
  ],
  [
    'Subscribe Message',
    'Subscribe',
    'Subscription Confirmation Request',
    '<p>Please confirm: {subscribe.url}</p>',
    'Please confirm: {subscribe.url}',
  ],
  [
    'Welcome Message',
    'Welcome',
    'Your Subscription has been Activated',
    '<p>Welcome to {welcome.group}.</p>',
    'Welcome to {welcome.group}.',
  ],
  [
    'Unsubscribe Message',
    'Unsubscribe',
    'Un-subscribe Confirmation',
    '<p>You left {unsubscribe.group}.</p>',
    'You left {unsubscribe.group}.',
  ],
  [
    'Resubscribe Message',
    'Resubscribe',
    'Re-subscribe Confirmation',
    '<p>You rejoined {resubscribe.group}.</p>',
    'You rejoined {resubscribe.group}.',
  ],
  [
    'Opt-out Message',
    'OptOut',
    'Opt-out Confirmation',
    '<p>You will receive no more mailings.</p>',
    'You will receive no more mailings.',
  ],
  [
    'Auto-responder',
    'Reply',
    'Please Send Inquiries to Our Contact Email Address',
    '<p>This address is not read: please write to our contact address.</p>',
    'This address is not read: please write to our contact address.',
  ],
];

export async function seedMailing(knex: Knex): Promise<void> {
  await seedOptionGroups(knex, MAILING_OPTION_GROUPS);
  await knex('crm_mailing_component').insert(
    COMPONENTS.map(([name, type, subject, html, text]) => ({
      name,
      component_type: type,
      subject,
      body_html: html,
      body_text: text,
      is_default: true,
      is_active: true,
    })),
  );
}

export async function unseedMailing(knex: Knex): Promise<void> {
  await knex('crm_option_group').whereIn('name', Object.keys(MAILING_OPTION_GROUPS)).delete();
}
