/** The authorization-code grant handler, for tests and other grant plugins. */
export { authorizationCodeGrant } from './grant';
