import { definePlugin } from '../../kernel';
import { formatRenderers } from '../../host';
import { renderXml } from './xml';

export default definePlugin(({ hooks }) => {
  hooks.tap(formatRenderers, () => ({
    name: 'xml',
    mediaType: 'text/xml',
    render: (value, opts) => renderXml(value, opts),
  }));
});
