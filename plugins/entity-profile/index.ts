/** entity-profile's public surface: how a profile field maps to an API field (for plugins that read profiles). */
export { describeField, type ProfileField } from './profile-fields';
