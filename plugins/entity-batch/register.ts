/** entity-batch: Batch records who created it and who changed it last, and when. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry } from '../entity-core';

export default definePlugin(({ services }) => {
  services.resolve<EntityRegistry>('entities').extend('Batch', {
    beforeSave(values, sc) {
      const caller = sc.principal.contactId;
      if (!sc.existing && (values.created_id === undefined || values.created_id === null) && caller)
        values.created_id = caller;
      if (sc.existing) {
        if (caller) values.modified_id = caller;
        values.modified_date = new Date();
      }
      return values;
    },
  });
});
