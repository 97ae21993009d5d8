/** entity-reminder: ActionSchedule's `modified_date` follows every update. Sending comes with mailings. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry } from '../entity-core';

export default definePlugin(({ services }) => {
  services.resolve<EntityRegistry>('entities').extend('ActionSchedule', {
    beforeSave(values, sc) {
      if (sc.existing) values.modified_date = new Date();
      return values;
    },
  });
});
