/** What other plugins import from auth-authx: the hook that adds header names, and its refusal shape. */
export { authxHeaders, type AuthxHeaderAliases } from './hooks';
export { authxRefusal } from './register';
