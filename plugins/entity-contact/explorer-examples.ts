/** Example calls the API Explorer lists for Contact (web-pages' `explorer.examples` hook, change history 5.8). */
import type { HookTapper } from '../../kernel';
import { explorerExamples, type ExplorerExample } from '../web-pages';

export const contactExamples: ExplorerExample[] = [
  {
    version: 4,
    entity: 'Contact',
    action: 'get',
    name: 'Individuals by name',
    description: 'The first ten individuals in sort order.',
    params: {
      select: ['id', 'display_name', 'first_name', 'last_name'],
      where: [['contact_type', '=', 'Individual']],
      orderBy: { sort_name: 'ASC' },
      limit: 10,
    },
  },
  {
    version: 4,
    entity: 'Contact',
    action: 'get',
    name: 'Contacts with their emails (chain)',
    description: 'Each contact with all its Email records, fetched by a chained call per row.',
    params: {
      select: ['id', 'display_name'],
      limit: 5,
      chain: { emails: ['Email', 'get', { where: [['contact_id', '=', '$id']], select: ['email', 'is_primary'] }] },
    },
  },
  {
    version: 4,
    entity: 'Contact',
    action: 'create',
    name: 'Create an individual',
    description: 'A new Individual; display and sort names are computed.',
    params: { values: { contact_type: 'Individual', first_name: 'Ada', last_name: 'Lovelace' } },
  },
  {
    version: 3,
    entity: 'Contact',
    action: 'get',
    name: 'Individuals by name',
    description: 'The first ten individuals in sort order, with their primary email.',
    params: {
      contact_type: 'Individual',
      return: ['display_name', 'email'],
      options: { sort: 'sort_name ASC', limit: 10 },
    },
  },
  {
    version: 3,
    entity: 'Contact',
    action: 'get',
    name: 'Contacts with their emails (api.Email.get)',
    description: 'Chaining: each contact with its Email records.',
    params: { return: ['display_name'], options: { limit: 5 }, 'api.Email.get': { return: ['email', 'is_primary'] } },
  },
  {
    version: 3,
    entity: 'Contact',
    action: 'create',
    name: 'Create an individual',
    description: 'A new Individual; display and sort names are computed.',
    params: { contact_type: 'Individual', first_name: 'Ada', last_name: 'Lovelace' },
  },
];

export const tapExplorerExamples = (hooks: HookTapper) => hooks.tap(explorerExamples, () => contactExamples);
