import { definePlugin, formatRenderers } from '../../kernel';
import { renderXml } from './xml';

export default definePlugin(({ hooks }) => {
  hooks.tap(formatRenderers, () => ({
    name: 'xml',
    mediaType: 'text/xml',
    render: (value, opts) => renderXml(value, opts),
  }));
});
