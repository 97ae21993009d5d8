/** entity-contact: Contact and its blocks (Email, Phone, Address, Website) with their lifecycles. */
import { definePlugin } from '../../kernel';
import type { EntityRegistry } from '../entity-core';
import { extendContactBlocks } from './contact-blocks';
import { extendContact } from './contact-lifecycle';
import { tapExplorerExamples } from './explorer-examples';

export default definePlugin(({ services, hooks }) => {
  tapExplorerExamples(hooks);
  const entities = services.resolve<EntityRegistry>('entities');
  extendContact(entities);
  extendContactBlocks(entities);
});
