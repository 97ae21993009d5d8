/** entity-geography: reference data only; its rules are metadata (permissions), so nothing to register. */
import { definePlugin } from '../../kernel';

export default definePlugin(() => undefined);
