/** entity-option's public surface: the metadata of the option entities (loaded by entity-core from entities/). */
export { default as LocationType } from './entities/LocationType';
export { default as OptionGroup } from './entities/OptionGroup';
export { default as OptionValue } from './entities/OptionValue';
export { seedOptionGroups, type OptionGroupSeeds, type OptionSeed } from './seed';
