/** entity-option's public surface: the metadata of the option entities. */
export { LocationType, OptionGroup, OptionValue } from './entities';
