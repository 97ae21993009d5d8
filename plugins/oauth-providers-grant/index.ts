/** oauth-providers-grant's public surface: the provider catalogue it reads. */
export { grantProviders, loadGrantCatalogue, mapGrantEntry } from './catalogue';
