/** The option groups activities use, with the reference's install values (names, labels, values). */
import type { Knex } from 'knex';
import { seedOptionGroups, type OptionGroupSeeds } from '../entity-option';

const ACTIVITY_TYPES: Array<[number, string, string?]> = [
  [1, 'Meeting'],
  [2, 'Phone Call'],
  [3, 'Email'],
  [4, 'SMS', 'Outbound SMS'],
  [5, 'Event Registration'],
  [6, 'Contribution'],
  [7, 'Membership Signup'],
  [8, 'Membership Renewal'],
  [9, 'Tell a Friend'],
  [10, 'Pledge Acknowledgment'],
  [11, 'Pledge Reminder'],
  [12, 'Inbound Email'],
  [13, 'Open Case'],
  [14, 'Follow up'],
  [15, 'Change Case Type'],
  [16, 'Change Case Status'],
  [17, 'Membership Renewal Reminder'],
  [18, 'Change Case Start Date'],
  [19, 'Bulk Email'],
  [20, 'Assign Case Role'],
  [21, 'Remove Case Role'],
  [22, 'Print PDF Letter'],
  [23, 'Merge Case'],
  [24, 'Reassigned Case'],
  [25, 'Link Cases'],
  [26, 'Change Case Tags'],
  [27, 'Add Client To Case'],
  [28, 'Survey'],
  [29, 'Canvass'],
  [30, 'PhoneBank'],
  [31, 'WalkList'],
  [32, 'Petition', 'Petition Signature'],
  [33, 'Change Custom Data'],
  [34, 'Mass SMS'],
  [35, 'Change Membership Status'],
  [36, 'Change Membership Type'],
  [37, 'Cancel Recurring Contribution'],
  [38, 'Update Recurring Contribution Billing Details'],
  [39, 'Update Recurring Contribution'],
  [40, 'Reminder Sent'],
  [41, 'Export Accounting Batch'],
  [42, 'Create Batch'],
  [43, 'Edit Batch'],
  [44, 'SMS delivery'],
  [45, 'Inbound SMS'],
];

export const ACTIVITY_OPTION_GROUPS: OptionGroupSeeds = {
  activity_type: { title: 'Activity Type', values: ACTIVITY_TYPES },
  activity_status: {
    title: 'Activity Status',
    values: [
      [1, 'Scheduled'],
      [2, 'Completed'],
      [3, 'Cancelled'],
      [4, 'Left Message', 'Left Message'],
      [5, 'Unreachable'],
      [6, 'Not Required'],
      [7, 'Available'],
      [8, 'No_show', 'No-show'],
    ],
  },
  priority: {
    title: 'Priority',
    values: [
      [1, 'Urgent'],
      [2, 'Normal'],
      [3, 'Low'],
    ],
  },
  activity_contacts: {
    title: 'Activity Contacts',
    values: [
      [1, 'Activity Assignees'],
      [2, 'Activity Source'],
      [3, 'Activity Targets'],
    ],
  },
  encounter_medium: {
    title: 'Encounter Medium',
    values: [
      [1, 'in_person', 'In Person'],
      [2, 'phone', 'Phone'],
      [3, 'email', 'Email'],
      [4, 'fax', 'Fax'],
      [5, 'letter_mail', 'Letter Mail'],
    ],
  },
  engagement_index: {
    title: 'Engagement Index',
    values: [
      [1, '1'],
      [2, '2'],
      [3, '3'],
      [4, '4'],
      [5, '5'],
    ],
  },
};

export const seedActivityOptions = (knex: Knex): Promise<void> => seedOptionGroups(knex, ACTIVITY_OPTION_GROUPS);
