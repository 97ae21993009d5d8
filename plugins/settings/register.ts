/** settings: the settings catalogue (hook), the store, and the Setting actions of both APIs. */
import { definePlugin } from '../../kernel';
import { CORE_SETTINGS, settingsCatalogue, settingsChanged } from './catalogue';
import { defineSettingActions3 } from './actions3';
import { defineSettingActions4 } from './actions4';
import { SettingsStore } from './store';

export default definePlugin(({ actions, hooks, onReady, runHook }) => {
  const store = new SettingsStore((db, names) => runHook(settingsChanged, db, names));
  hooks.tap(settingsCatalogue, () => CORE_SETTINGS);
  onReady(async () => store.load(await runHook(settingsCatalogue)));
  defineSettingActions3(actions, store);
  defineSettingActions4(actions, store);
});
