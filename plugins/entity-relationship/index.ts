/** entity-relationship's public surface: the relationship entities' metadata. */
export { default as Relationship } from './entities/Relationship';
export { default as RelationshipType } from './entities/RelationshipType';
