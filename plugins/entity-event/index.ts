/** entity-event's public surface: the seeded option groups and statuses (nothing else is shared). */
export { EVENT_OPTION_GROUPS, PARTICIPANT_STATUSES } from './seed';
