/** The client-credentials grant handler. */
export { clientCredentialsGrant } from './register';
