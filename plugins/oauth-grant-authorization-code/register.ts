import { definePlugin } from '../../kernel';
import { oauthGrants } from '../oauth-client';
import { authorizationCodeGrant } from './grant';

export default definePlugin(({ hooks }) => {
  hooks.tap(oauthGrants, () => authorizationCodeGrant);
});
