/** The reference's install data for pledges: the pledge_status option group (installments use contribution_status). */
import type { OptionGroupSeeds } from '../entity-option';

export const PLEDGE_OPTION_GROUPS: OptionGroupSeeds = {
  pledge_status: {
    title: 'Pledge Status',
    values: [
      [1, 'Completed'],
      [2, 'Pending'],
      [3, 'Cancelled'],
      [5, 'In Progress'],
      [6, 'Overdue'],
    ],
  },
};

/** Status values shared by pledges (pledge_status) and their installments (contribution_status). */
export const STATUS = { completed: 1, pending: 2, cancelled: 3, inProgress: 5, overdue: 6 } as const;
