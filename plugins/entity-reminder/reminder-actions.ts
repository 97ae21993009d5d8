/** Job.send_reminder: sends the scheduled reminders that are due (run by the jobs runner, or called directly). */
import { KernelError, type ActionContext, type ActionRegistrar, type Logger } from '../../kernel';
import type { EntityService } from '../entity-core';
import type { Mailer } from '../mailer';
import { sendReminders } from './sending';

export function defineReminderActions(
  actions: ActionRegistrar,
  service: () => EntityService,
  mailer: () => Mailer,
  log: Logger,
): void {
  actions.define({
    version: 3,
    entity: 'Job',
    action: 'send_reminder',
    description:
      'Sends the scheduled reminders that are due (activity reminders), each once per schedule, record and contact',
    params: { type: 'object', additionalProperties: true },
    permission: 'administer CRM',
    writes: true,
    async handler(_params, ctx: ActionContext) {
      if (!ctx.scope.cradle.api.actions({ version: 3, entity: 'Activity' }).length)
        throw new KernelError(
          'E_INVALID_PARAMS',
          'Activity reminders need the entity-activity plugin, which is not enabled',
        );
      const entities = service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: true });
      const result = await sendReminders({ db: ctx.db, entities, mailer: mailer(), log });
      return { is_error: 0, version: 3, count: 1, values: [{ ...result }] };
    },
  });
}
