/**
 * Job.process_membership (APIv3): recalculates every membership's status from its dates and the rules, as the
 * reference's scheduled job does; overridden, test, Pending, Cancelled and administrator-only statuses are left.
 */
import type { ActionRegistrar } from '../../kernel';
import type { EntityService } from '../entity-core';
import { isoDate, statusFor, today } from './dates';
import { statusRules } from './membership-lifecycle';

export function defineMembershipJob(actions: ActionRegistrar, service: () => EntityService): void {
  actions.define({
    version: 3,
    entity: 'Job',
    action: 'process_membership',
    description: 'Recalculates the status of every membership from its dates and the membership status rules',
    params: { type: 'object' },
    permission: { allOf: ['access CRM', 'administer CRM'] },
    writes: true,
    handler: async (_params, ctx) => {
      const entities = service().bind({ db: ctx.db, principal: ctx.principal, trusted: true, scope: ctx.scope });
      const rules = await statusRules(entities);
      const all = await entities.get('MembershipStatus', {});
      const frozen = new Set(
        all.filter((s) => s.is_admin || s.name === 'Pending' || s.name === 'Cancelled').map((s) => Number(s.id)),
      );
      const memberships = await entities.get('Membership', { where: { is_override: false, is_test: false } });
      const on = today();
      let updated = 0;
      for (const membership of memberships) {
        if (frozen.has(Number(membership.status_id))) continue;
        const dates = {
          join_date: isoDate(membership.join_date),
          start_date: isoDate(membership.start_date),
          end_date: isoDate(membership.end_date),
        };
        const status = statusFor(rules, dates, on);
        if (!status || Number(status.id) === Number(membership.status_id)) continue;
        await entities.save('Membership', { id: membership.id, status_id: status.id });
        updated++;
      }
      const values = { processed: memberships.length, updated };
      return { is_error: 0, version: 3, count: 1, values };
    },
  });
}
