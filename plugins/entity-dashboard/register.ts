/** Data only: the entities' rules are metadata (fields, options, permissions, row access by contact). */
import { definePlugin } from '../../kernel';

export default definePlugin(() => undefined);
