/** format-xml's public surface: the XML renderers. */
export { renderCoreXml, renderWpXml, renderXml } from './xml';
