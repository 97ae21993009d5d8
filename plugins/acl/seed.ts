/** The reference's ACL roles (option group acl_role): Administrator and Authenticated. */
import type { Knex } from 'knex';
import { seedOptionGroups } from '../entity-option';

export const seedAclRoles = (knex: Knex): Promise<void> =>
  seedOptionGroups(knex, {
    acl_role: {
      title: 'ACL Role',
      values: [
        [1, 'Admin', 'Administrator'],
        [2, 'Authenticated', 'Authenticated'],
      ],
    },
  });
