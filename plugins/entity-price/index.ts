/** entity-price's public surface: its seeded option groups (nothing else is shared). */
export { PRICE_OPTION_GROUPS } from './seed';
