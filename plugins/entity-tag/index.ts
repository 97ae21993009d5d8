/** entity-tag's public surface: the reference's `tag_used_for` options. */
export { TAG_USED_FOR } from './entities/used-for';
