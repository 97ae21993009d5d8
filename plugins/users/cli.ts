/**
 * CLI commands contributed through `cli.commands`: users, roles, API keys and JWTs. Secrets a
 * command creates (API key, generated password, JWT) are printed once in its output, never logged.
 */
import { KernelError } from '../../kernel';
import { type CliCommand } from '../../host';
import { API_CLIENT_PERMISSIONS, API_CLIENT_ROLE, deps, int, JSON_OPTION, need, str, table } from './cli-helpers';
import { randomToken } from './crypto';
import { keyCliCommands } from './key-cli';

export { API_CLIENT_PERMISSIONS, API_CLIENT_ROLE } from './cli-helpers';

/** `user enable` / `user disable`: a disabled user's credentials are all refused and its sessions end. */
function activeCommand(active: boolean): CliCommand {
  const verb = active ? 'enable' : 'disable';
  return {
    name: `user ${verb}`,
    description: active
      ? 'Enable a disabled user again'
      : 'Disable a user: every credential of the user is refused and its sessions end',
    arguments: [{ name: 'username', description: 'Login name', required: true }],
    async run(args, _options, cli) {
      const { db, identity } = deps(cli);
      await identity.setActive(db, need(args, 0, 'username'), active);
      return `User ${args[0]} ${verb}d.`;
    },
  };
}

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
    {
      name: 'role list',
      description: 'List roles with their permissions and users (--catalogue: every known permission)',
      options: [{ flags: '--catalogue', description: 'List the permission catalogue instead' }, JSON_OPTION],
      async run(_args, options, cli) {
        const { db, identity, catalogue } = deps(cli);
        if (options.catalogue) {
          const perms = [...catalogue.values()].map((p) => ({ name: p.name, label: p.label }));
          return table(perms, ['name', 'label'], options.json, 'No permissions.');
        }
        const roles = (await identity.listRoles(db)).map((r) => ({
          name: r.name,
          permissions: r.permissions,
          users: r.users,
        }));
        if (options.json) return JSON.stringify(roles, null, 2);
        if (!roles.length) return 'No roles.';
        return [
          'ROLE: PERMISSIONS',
          ...roles.map(
            (r) =>
              `${r.name}: ${r.permissions.join(', ') || '(no permissions)'}${r.users.length ? `\n  users: ${r.users.join(', ')}` : ''}`,
          ),
        ].join('\n');
      },
    },
    {
      name: 'role grant',
      description: 'Grant permissions to a role (created if new), or with --user give the role to a user',
      arguments: [
        { name: 'role', description: 'Role name', required: true },
        { name: 'permissions...', description: 'Permission names (quote names with spaces)', required: false },
      ],
      options: [
        { flags: '--user <username>', description: 'Give the role to this user instead' },
        { flags: '--force', description: 'Accept permissions missing from the catalogue' },
      ],
      async run(args, options, cli) {
        const { db, identity, catalogue } = deps(cli);
        const [role, ...perms] = [need(args, 0, 'role'), ...args.slice(1).flat()];
        if (str(options.user)) {
          await identity.assignRole(db, str(options.user)!, role);
          return `Role ${role} given to ${options.user}.`;
        }
        if (!perms.length) throw new KernelError('E_INVALID_PARAMS', 'Name at least one permission, or --user');
        const unknown = perms.filter((p) => p !== '*' && !catalogue.has(identity.normalize(p)));
        if (unknown.length && !options.force) {
          throw new KernelError(
            'E_INVALID_PARAMS',
            `Unknown permission(s): ${unknown.join(', ')} (see crm role list --catalogue; --force accepts them)`,
          );
        }
        await identity.grantPermissions(db, role, perms);
        return `Role ${role} now holds: ${perms.map((p) => identity.normalize(p)).join(', ')}.`;
      },
    },
    {
      name: 'role revoke',
      description: 'Revoke permissions from a role, or with --user take the role from a user',
      arguments: [
        { name: 'role', description: 'Role name', required: true },
        { name: 'permissions...', description: 'Permission names', required: false },
      ],
      options: [{ flags: '--user <username>', description: 'Take the role from this user instead' }],
      async run(args, options, cli) {
        const { db, identity } = deps(cli);
        const [role, ...perms] = [need(args, 0, 'role'), ...args.slice(1).flat()];
        if (str(options.user)) {
          await identity.unassignRole(db, str(options.user)!, role);
          return `Role ${role} taken from ${options.user}.`;
        }
        if (!perms.length) throw new KernelError('E_INVALID_PARAMS', 'Name at least one permission, or --user');
        await identity.revokePermissions(db, role, perms);
        return `Revoked from ${role}: ${perms.join(', ')}.`;
      },
    },
    ...keyCliCommands(),
  ];
}
