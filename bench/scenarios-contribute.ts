/** entity-contribute's scenarios: a page of contributions with joins, and a contribution with a line item. */
import type { BenchCredentials, Scenario } from './scenarios';

type Api3 = (
  name: string,
  entity: string,
  action: string,
  params: Record<string, unknown>,
  auth: Record<string, string>,
) => Scenario;
type Api4 = (
  name: string,
  entityAction: string,
  params: Record<string, unknown>,
  auth: Record<string, string>,
) => Scenario;

export function contributeScenarios(
  credentials: BenchCredentials,
  key: Record<string, string>,
  api3: Api3,
  api4: Api4,
): Scenario[] {
  if (!credentials.contributorId) return [];
  return [
    {
      ...api4(
        'v4 Contribution.get + financial type label and contact name (25)',
        'Contribution/get',
        {
          select: ['id', 'total_amount', 'financial_type_id:label', 'contact_id.display_name'],
          orderBy: { id: 'ASC' },
          limit: 25,
        },
        key,
      ),
      baseline: '/contributions',
    },
    // A write: the baseline page is only there to fill the table (the goal is creates per second).
    {
      ...api3(
        'v3 Contribution.create with a line item',
        'Contribution',
        'create',
        {
          contact_id: credentials.contributorId,
          financial_type_id: 'Donation',
          total_amount: '12.50',
          line_items: [{ qty: 5, unit_price: '2.50', label: 'Bench tickets' }],
        },
        key,
      ),
      baseline: '/contributions',
    },
  ];
}
