import { definePlugin } from '../../kernel';
import { formatRenderers } from '../../host';
import { renderJson } from './json';

export default definePlugin(({ hooks }) => {
  hooks.tap(formatRenderers, () => ({
    name: 'json',
    mediaType: 'application/json',
    render: (value, opts) => renderJson(value, opts),
  }));
});
