/**
 * `crm secrets rotate [--new-key]`: re-encrypts every stored `encrypted` field with the newest key (rows in
 * plain text from before encryption too), each table in one transaction under row locks. Old keys stay
 * configured until no row needs them; a row this process cannot decrypt stops the rotation with a clear error.
 */
import { type CliCommand, type SecretBox } from '../../host';
import type { EntityRegistry } from './registry';

export function secretsCliCommands(): CliCommand[] {
  return [
    {
      name: 'secrets rotate',
      description:
        'Re-encrypt every stored secret (OAuth secrets and tokens, API keys, processor and mail passwords) with the newest key',
      options: [
        {
          flags: '--new-key',
          description: 'First generate a new key and make it current (keys in <dataDir>/secret-keys.json only)',
        },
      ],
      async run(_args, options, cli) {
        const box = cli.services.secretBox as SecretBox;
        const registry = cli.services.entities as EntityRegistry;
        const added = options.newKey ? box.addKey() : undefined;
        let values = 0;
        let rows = 0;
        for (const name of registry.names()) {
          const entity = registry.get(name);
          const columns = entity.fields.filter((f) => f.encrypted).map((f) => f.column ?? f.name);
          if (!columns.length) continue;
          await cli.db.transaction(async (trx) => {
            const stored = (await trx(entity.table)
              .select('id', ...columns)
              .orderBy('id')
              .forUpdate()) as Array<Record<string, unknown> & { id: number }>;
            for (const row of stored) {
              const update: Record<string, string> = {};
              for (const column of columns) {
                const value = row[column];
                if (typeof value === 'string' && value !== '' && box.needsRotation(value))
                  update[column] = box.encrypt(box.decrypt(value));
              }
              if (!Object.keys(update).length) continue;
              await trx(entity.table).where('id', row.id).update(update);
              values += Object.keys(update).length;
              rows++;
            }
          });
        }
        return [
          ...(added
            ? [`New key ${added} added to ${box.file} and made current (older keys kept to read old rows).`]
            : []),
          `Re-encrypted ${values} value(s) in ${rows} row(s) with key ${box.currentKid}.`,
        ].join('\n');
      },
    },
  ];
}
