/**
 * entity-reminder: ActionSchedule (its `modified_date` follows every update), ActionLog, and Job.send_reminder,
 * which sends activity reminders through the mailer (a Job row runs it; see migrations/002).
 */
import { definePlugin } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import type { Mailer } from '../mailer';
import { defineReminderActions } from './reminder-actions';

export default definePlugin(({ services, actions, log }) => {
  services.resolve<EntityRegistry>('entities').extend('ActionSchedule', {
    beforeSave(values, sc) {
      if (sc.existing) values.modified_date = new Date();
      return values;
    },
  });
  defineReminderActions(
    actions,
    () => services.resolve<EntityService>('entityService'),
    () => services.resolve<Mailer>('mailer'),
    log,
  );
});
