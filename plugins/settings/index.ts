/** settings' public surface: the catalogue hook other plugins declare their settings through. */
export { settingsCatalogue, settingsChanged, CORE_SETTINGS, type SettingSpec } from './catalogue';
export { SettingsStore } from './store';
