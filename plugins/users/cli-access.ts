/**
 * CLI commands for what lets a user in: roles and their permissions, API keys (with a warning when the
 * key's user could not authenticate with it) and JWTs. Secrets are printed once, never logged.
 */
import { holds, KernelError } from '../../kernel';
import { type CliCommand, type CliContext } from '../../host';
import { API_CLIENT_PERMISSIONS, API_CLIENT_ROLE, deps, int, JSON_OPTION, need, str, table } from './cli-support';
import { issueJwt } from './jwt';

async function keyWarnings(cli: CliContext, contactId: number): Promise<string[]> {
  const { db, identity } = deps(cli);
  const user = await identity.findUserByContact(db, contactId);
  if (!user)
    return [
      `Warning: contact ${contactId} has no user; flows that require a user (the default for API keys) ` +
        `refuse this key. Create one with: crm user add <name> --contact ${contactId} --api-client`,
    ];
  if (!user.is_active) return [`Warning: user ${user.username} is disabled; every call with this key is refused.`];
  const perms = await identity.permissionsFor(db, user.id);
  if (!holds('authenticate with api key', perms))
    return [
      `Warning: user ${user.username} lacks 'authenticate with api key', so calls with this key pass the ` +
        'default guards only with the site key. Fix: ' +
        `crm role grant ${API_CLIENT_ROLE} ${API_CLIENT_PERMISSIONS.map((name) => `'${name}'`).join(' ')} ` +
        `&& crm role grant ${API_CLIENT_ROLE} --user ${user.username}`,
    ];
  return [];
}

export function accessCliCommands(): CliCommand[] {
  return [
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
    {
      name: 'key create',
      description: 'Create an API key for a contact or user; the key is printed once and stored hashed',
      options: [
        { flags: '--contact <id>', description: 'Contact id' },
        { flags: '--user <username>', description: "The user's contact" },
        { flags: '--label <text>', description: 'What the key is for' },
      ],
      async run(_args, options, cli) {
        const { db, identity } = deps(cli);
        let contactId = int(options.contact, 'contact');
        if (str(options.user)) contactId = (await identity.requireUser(db, str(options.user)!)).contact_id;
        if (!contactId) throw new KernelError('E_INVALID_PARAMS', 'Give --contact <id> or --user <username>');
        const { id, key } = await identity.createApiKey(db, contactId, str(options.label));
        return [
          `API key ${id} for contact ${contactId} (shown once; only its hash is stored):\n${key}`,
          ...(await keyWarnings(cli, contactId)),
        ].join('\n');
      },
    },
    {
      name: 'key list',
      description: 'List API keys (id, contact, prefix, label, state); never the keys',
      options: [JSON_OPTION],
      async run(_args, options, cli) {
        const { db, identity } = deps(cli);
        const keys = (await identity.listApiKeys(db)).map((k) => ({
          id: k.id,
          contact: k.contact_id,
          prefix: `${k.prefix}…`,
          label: k.label ?? null,
          state: k.revoked_at ? 'revoked' : 'active',
        }));
        return table(keys, ['id', 'contact', 'prefix', 'label', 'state'], options.json, 'No API keys.');
      },
    },
    {
      name: 'key revoke',
      description: 'Revoke an API key by id or prefix',
      arguments: [{ name: 'key', description: 'Key id or prefix (from key list)', required: true }],
      async run(args, _options, cli) {
        const { db, identity } = deps(cli);
        const n = await identity.revokeApiKey(db, need(args, 0, 'key'));
        if (!n) throw new KernelError('E_NOT_FOUND', `No active API key ${args[0]}`);
        return `Revoked ${n} API key(s).`;
      },
    },
    {
      name: 'jwt issue',
      description: 'Issue a JWT for AuthX (HS256, sub cid:<contact>, scope authx)',
      options: [
        { flags: '--contact <id>', description: 'Contact id (required)' },
        { flags: '--ttl <seconds>', description: 'Lifetime in seconds', default: '3600' },
      ],
      async run(_args, options, cli) {
        const { db, identity, keyring } = deps(cli);
        const contactId = int(options.contact, 'contact');
        if (!contactId) throw new KernelError('E_INVALID_PARAMS', 'Give --contact <id>');
        const ttl = int(options.ttl ?? '3600', 'ttl')!;
        if (!(await identity.contactExists(db, contactId)))
          throw new KernelError('E_NOT_FOUND', `Contact ID ${contactId} is invalid`);
        return issueJwt(keyring, contactId, ttl);
      },
    },
  ];
}
