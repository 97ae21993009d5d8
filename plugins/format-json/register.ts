import { definePlugin, formatRenderers } from '../../kernel';
import { renderJson } from './json';

export default definePlugin(({ hooks }) => {
  hooks.tap(formatRenderers, () => ({
    name: 'json',
    mediaType: 'application/json',
    render: (value, opts) => renderJson(value, opts),
  }));
});
