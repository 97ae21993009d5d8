/** oauth-admin offers nothing to other plugins; its page is reached through web-pages' links. */
export { describeExpiry, describeSource } from './view';
