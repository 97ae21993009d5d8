/** entity-member's public surface: the membership date and status arithmetic. */
export { addUnits, isoDate, membershipDates, renewalDates, statusFor, today, ymd } from './dates';
