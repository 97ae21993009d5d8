/**
 * CLI commands contributed through `cli.commands`: users here, roles, API keys and JWTs in cli-access.ts.
 * Secrets a command creates (API key, generated password, JWT) are printed once in its output, never logged.
 */
import { type CliCommand } from '../../host';
import { accessCliCommands } from './cli-access';
import {
  activeCommand,
  API_CLIENT_PERMISSIONS,
  API_CLIENT_ROLE,
  deps,
  int,
  JSON_OPTION,
  need,
  str,
  table,
} from './cli-support';
import { randomToken } from './crypto';

export { API_CLIENT_PERMISSIONS, API_CLIENT_ROLE } from './cli-support';

export function userCliCommands(): CliCommand[] {
  return [
    {
      name: 'user add',
      description: 'Create a user linked to a contact (a new contact unless --contact is given)',
      arguments: [{ name: 'username', description: 'Login name', required: true }],
      options: [
        { flags: '--contact <id>', description: 'Existing contact id to link' },
        { flags: '--password <password>', description: 'Password (default: a generated one, printed once)' },
        { flags: '--roles <roles>', description: 'Comma-separated roles, e.g. administrator' },
        { flags: '--no-password', description: 'Create the user without a password (API keys / JWT only)' },
        {
          flags: '--api-client',
          description:
            `Give the ${API_CLIENT_ROLE} role (created if new: ${API_CLIENT_PERMISSIONS.join(', ')}), ` +
            "so the user's API keys pass the guards",
        },
      ],
      async run(args, options, cli) {
        const { db, identity } = deps(cli);
        const generated = options.password === undefined ? randomToken(12) : undefined;
        const password = options.password === false ? undefined : (str(options.password) ?? generated);
        const roles = (str(options.roles) ?? '')
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean);
        if (options.apiClient && !roles.includes(API_CLIENT_ROLE)) roles.push(API_CLIENT_ROLE);
        const user = await db.transaction(async (trx) => {
          if (options.apiClient) await identity.grantPermissions(trx, API_CLIENT_ROLE, API_CLIENT_PERMISSIONS);
          return identity.createUser(trx, {
            username: need(args, 0, 'username'),
            password,
            contactId: int(options.contact, 'contact'),
            roles,
          });
        });
        return [
          `Created user ${user.username} (id ${user.id}, contact ${user.contact_id})` +
            `${roles.length ? ` with roles ${roles.join(', ')}` : ''}.`,
          ...(generated && password ? [`Password (shown once): ${generated}`] : []),
        ].join('\n');
      },
    },
    {
      name: 'user list',
      description: 'List users, their contacts, roles and whether they are active',
      options: [JSON_OPTION],
      async run(_args, options, cli) {
        const { db, identity } = deps(cli);
        const users = (await identity.listUsers(db)).map((u) => ({
          id: u.id,
          username: u.username,
          contact: u.contact_id,
          state: u.is_active ? 'active' : 'disabled',
          roles: u.roles,
        }));
        return table(users, ['id', 'username', 'contact', 'state', 'roles'], options.json, 'No users.');
      },
    },
    {
      name: 'user passwd',
      description: "Set a user's password (ends the user's sessions)",
      arguments: [{ name: 'username', description: 'Login name', required: true }],
      options: [
        { flags: '--password <password>', description: 'New password (default: a generated one, printed once)' },
      ],
      async run(args, options, cli) {
        const { db, identity } = deps(cli);
        const generated = str(options.password) ? undefined : randomToken(12);
        await identity.setPassword(db, need(args, 0, 'username'), str(options.password) ?? generated!);
        return `Password of ${args[0]} changed.${generated ? `\nPassword (shown once): ${generated}` : ''}`;
      },
    },
    activeCommand(false),
    activeCommand(true),
    ...accessCliCommands(),
  ];
}
