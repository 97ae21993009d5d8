/** entity-report: a new ReportInstance records its creator (the caller), as the reference does. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry } from '../entity-core';

export default definePlugin(({ services }) => {
  services.resolve<EntityRegistry>('entities').extend('ReportInstance', {
    beforeSave(values, sc) {
      if (!sc.existing && (values.created_id === undefined || values.created_id === null) && sc.principal.contactId)
        values.created_id = sc.principal.contactId;
      return values;
    },
  });
});
