import { definePlugin } from '../../kernel';
import { oauthProviders, ProviderStage } from '../oauth-client';
import { grantProviders } from './catalogue';

export default definePlugin<{ only?: string[] }>(({ hooks, config }) => {
  let cached: ReturnType<typeof grantProviders> | undefined;
  // The lowest stage: core files, plugins and the private folder all replace a catalogue entry of the same name.
  hooks.tap(oauthProviders, () => (cached ??= grantProviders(config.only)).map((p) => structuredClone(p)), {
    stage: ProviderStage.CATALOGUE,
  });
});
