import type { ActionRegistrar } from '../../kernel';
export function defineGenericActions(_actions: ActionRegistrar): void {}
