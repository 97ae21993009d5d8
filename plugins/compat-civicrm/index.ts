/** compat-civicrm's public surface: the reference's paths and spellings it contributes. */
export { CIVICRM_PATHS, COMPAT } from './register';
export type { CompatCivicrm } from './types';
