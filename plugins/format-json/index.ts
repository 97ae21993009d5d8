/** format-json's public surface: the JSON renderer. */
export { renderJson } from './json';
