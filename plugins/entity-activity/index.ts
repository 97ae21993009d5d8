/** entity-activity's public surface: the activity entities' metadata and the option groups it seeds. */
export { default as Activity } from './entities/Activity';
export { default as ActivityContact } from './entities/ActivityContact';
export { ACTIVITY_OPTION_GROUPS } from './seed';
