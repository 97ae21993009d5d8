/**
 * Bench custom data: three custom groups on Contact with ten fields between them, defined through the CLI
 * as a deployer would (the service makes the tables), then filled for every contact in bulk SQL.
 */
import type { Knex } from 'knex';
import type { BenchCredentials, Scenario } from './scenarios';

type Cli = (env: Record<string, string>, ...args: string[]) => string;

/** The groups and fields (label, data type); the scenario filters on `Bench_A.Tier`. */
export const BENCH_CUSTOM: Record<string, Array<[string, string]>> = {
  Bench_A: [
    ['Tier', 'String'],
    ['Score', 'Int'],
    ['Since', 'Date'],
  ],
  Bench_B: [
    ['Colour', 'String'],
    ['Size', 'String'],
    ['Pets', 'Int'],
    ['Newsletter', 'Boolean'],
  ],
  Bench_C: [
    ['Remark', 'Memo'],
    ['Budget', 'Money'],
    ['Rating', 'Float'],
  ],
};

/** The scenario's select list: `Bench_A.Tier` … `Bench_C.Rating`. */
export const BENCH_CUSTOM_PATHS = Object.entries(BENCH_CUSTOM).flatMap(([group, fields]) =>
  fields.map(([label]) => `${group}.${label}`),
);

/** The value every contact gets, as SQL over `id` (Tier: Gold for every 5th contact). */
const FILL: Record<string, string> = {
  Tier: `case when id % 5 = 0 then 'Gold' when id % 5 = 1 then 'Silver' else 'Bronze' end`,
  Score: 'id % 100',
  Since: `timestamp '2020-01-01' + (id % 365) * interval '1 day'`,
  Colour: `(array['red','green','blue'])[id % 3 + 1]`,
  Size: `(array['S','M','L','XL'])[id % 4 + 1]`,
  Pets: 'id % 4',
  Newsletter: 'id % 2 = 0',
  Remark: `'remark ' || id`,
  Budget: '(id % 1000) * 1.25',
  Rating: '(id % 50) / 10.0',
};

/** Defines the groups through `crm api3` unless they exist (a seeded database keeps them). */
export function defineBenchCustomData(cli: Cli, env: Record<string, string>): void {
  let count: number;
  try {
    count = Number(JSON.parse(cli(env, 'api3', 'CustomGroup', 'getcount', '{"name":"Bench_A"}')));
  } catch {
    return; // custom-data is not enabled: no custom scenario
  }
  if (count > 0) return;
  for (const [name, fields] of Object.entries(BENCH_CUSTOM)) {
    const params = {
      name,
      title: name.replace('_', ' '),
      extends: 'Contact',
      'api.CustomField.create': fields.map(([label, dataType]) => ({
        custom_group_id: '$value.id',
        label,
        data_type: dataType,
        html_type: dataType === 'Date' ? 'Select Date' : dataType === 'Memo' ? 'TextArea' : 'Text',
        is_searchable: label === 'Tier' ? 1 : 0,
      })),
    };
    cli(env, 'api3', 'CustomGroup', 'create', JSON.stringify(params));
  }
}

/** Where each bench field is stored: `Bench_A.Tier` → table and column. */
export async function benchCustomColumns(
  query: (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>,
): Promise<Array<{ path: string; table: string; column: string }>> {
  const rows = await query(
    `select g.name as group_name, g.table_name, f.name, f.column_name from crm_custom_field f
     join crm_custom_group g on g.id = f.custom_group_id where g.name like 'Bench\\_%' order by g.name, f.id`,
    [],
  );
  return rows.map((row) => ({
    path: `${String(row.group_name)}.${String(row.name)}`,
    table: String(row.table_name),
    column: String(row.column_name),
  }));
}

/** Fills each bench group's table with one row per contact, once. */
export async function fillBenchCustomData(db: Knex, log: (m: string) => void): Promise<boolean> {
  const columns = await benchCustomColumns(
    async (sql, params) => ((await db.raw(sql, params as never)) as { rows: Array<Record<string, unknown>> }).rows,
  );
  if (!columns.length) return false;
  const tables = [...new Set(columns.map((column) => column.table))];
  const [{ rows }] = (await db(tables[0]).count({ rows: '*' })) as Array<{ rows: string }>;
  if (Number(rows) > 0) return true;
  log('bench: seeding custom values (3 groups, 10 fields) for every contact');
  await db.transaction(async (trx) => {
    for (const table of tables) {
      const own = columns.filter((column) => column.table === table);
      const names = own.map((column) => `"${column.column}"`).join(', ');
      const values = own.map((column) => FILL[column.path.split('.')[1]]).join(', ');
      await trx.raw(`insert into "${table}" (entity_id, ${names}) select id, ${values} from crm_contact`);
    }
  });
  for (const table of tables) await db.raw(`analyze "${table}"`);
  return true;
}

/** The custom data scenario: ten custom fields of three groups, filtered on one, against `/contacts-custom`. */
export function customScenarios(
  credentials: BenchCredentials,
  key: Record<string, string>,
  api4: (name: string, entityAction: string, params: Record<string, unknown>, auth: Record<string, string>) => Scenario,
): Scenario[] {
  if (!credentials.customData) return [];
  const params = {
    select: ['id', 'display_name', ...BENCH_CUSTOM_PATHS],
    where: [['Bench_A.Tier', '=', 'Gold']],
    orderBy: { sort_name: 'ASC' },
    limit: 25,
  };
  const name = 'v4 Contact.get 10 custom fields of 3 groups, filtered on one (25)';
  return [{ ...api4(name, 'Contact/get', params, key), baseline: '/contacts-custom' }];
}
