/** The password grant handler. */
export { passwordGrant } from './register';
