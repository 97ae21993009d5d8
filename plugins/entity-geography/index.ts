/** entity-geography's public surface: the geography entities' metadata and the world regions it seeds. */
export { default as Country } from './entities/Country';
export { default as County } from './entities/County';
export { default as StateProvince } from './entities/StateProvince';
export { default as WorldRegion } from './entities/WorldRegion';
export { WORLD_REGIONS } from './seed';
