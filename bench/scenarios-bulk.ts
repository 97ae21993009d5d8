/** Bulk writes (issue 18): APIv4 `save` of 1,000 new contacts per call; contacts per second = req/s × 1,000. */
import type { Scenario } from './scenarios';

type Api4 = (
  name: string,
  entityAction: string,
  params: Record<string, unknown>,
  auth: Record<string, string>,
) => Scenario;

export const BULK_RECORDS = 1000;

export function bulkScenarios(key: Record<string, string>, api4: Api4): Scenario[] {
  const records = Array.from({ length: BULK_RECORDS }, (_, i) => ({
    first_name: `Bulk${i}`,
    last_name: 'Save',
    'email_primary.email': `bulk${i}@example.org`,
    'phone_primary.phone': `+44 20 7946 ${String(i).padStart(4, '0')}`,
  }));
  // A write: the baseline page is only there to compare against (the goal is contacts per second).
  return [
    {
      ...api4(
        `v4 Contact.save ${BULK_RECORDS} contacts + email + phone per call`,
        'Contact/save',
        { records, defaults: { contact_type: 'Individual' } },
        key,
      ),
      connections: 2,
    },
  ];
}
