/** audit-log's public surface: the history reader (for other plugins' reports) and the setting's name. */
export { recordHistory, type LogEntry } from './history';
export { SETTING as LOGGING_SETTING } from './state';
