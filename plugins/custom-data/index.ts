/** custom-data's public surface: the run-time custom data service and the names it gives. */
export { CustomData, customDataTableChanged, TOPIC as CUSTOM_DATA_TOPIC } from './runtime';
export { CONTACT_TYPES, EXCLUDED, extendedName } from './entities/CustomGroup';
export { valueEntityName } from './value-tables';
