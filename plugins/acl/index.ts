/** acl's public surface: the ACL entities' metadata and the grant conditions. */
export { default as ACL } from './entities/ACL';
export { default as ACLEntityRole } from './entities/ACLEntityRole';
export { aclGrant } from './grants';
