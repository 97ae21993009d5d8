/**
 * What each layer of a read costs, in one process, without HTTP: the bare statement (knex.raw, the SQL the
 * planner writes for this page), the store (planning, row access, knex, rows), and the whole APIv4 call (the
 * pipeline, parameters, the service). Alternated in blocks; the least CPU time per call of all blocks is
 * reported, which a shared machine disturbs least. Needs a seeded bench database (`npm run bench --
 * --seed-only`) and the compiled `dist/` (what a deployment runs):
 *   DATABASE_URL=… CRM_DB_SCHEMA=bench_20000 CRM_CONFIG=var/bench/crm.config.json \
 *     node --import tsx/esm bench/layers.ts [--blocks 40] [--calls 200]
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { blocks: { type: 'string', default: '40' }, calls: { type: 'string', default: '200' } },
});
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const host = (await import(pathToFileURL(path.join(root, 'dist/host/index.js')).href)) as typeof import('../host');
// The bench's probe plugin is TypeScript; this process loads the compiled plugins only.
const config = host.loadConfig({});
config.pluginPaths = [];
config.enable = [];
const kernel = await host.createKernel({ config });
const { entityStore: store, entities } = kernel.container.cradle as unknown as {
  entityStore: import('../plugins/entity-core').EntityStore;
  entities: import('../plugins/entity-core').EntityRegistry;
};
const contact = entities.get('Contact')!;
const admin = {
  contactId: 1,
  via: 'bench',
  permissions: new Set(['administer CRM', 'view all contacts', 'access CRM']),
};
const page = { select: ['id', 'display_name', 'email_primary.email'], orderBy: { sort_name: 'ASC' }, limit: 25 };
const query = {
  select: page.select,
  where: [{ path: 'is_deleted', op: '=' as const, value: false }],
  sort: [{ path: 'sort_name', dir: 'ASC' as const }],
  limit: 25,
  joinAccess: true,
};
const layers: Record<string, () => Promise<unknown>> = {
  'statement (knex.raw)': () =>
    kernel.db.raw(
      'select c.id, c.display_name, e.email from crm_contact c left join crm_email e on e.contact_id = c.id ' +
        'and e.is_primary = ? where c.is_deleted = ? order by c.sort_name, c.id limit ?',
      [true, false, 25],
    ),
  'store.selectRows': () => store.selectRows(kernel.db, contact, query, admin as never),
  'kernel.call APIv4 Contact.get': () =>
    kernel.call({ version: 4, entity: 'Contact', action: 'get', params: page, principal: admin as never }),
};

const calls = Number(args.calls);
const best = new Map<string, number>();
for (const run of Object.values(layers)) for (let i = 0; i < 1000; i++) await run();
for (let block = 0; block < Number(args.blocks); block++) {
  for (const [name, run] of Object.entries(layers)) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await run();
    const used = process.cpuUsage(start);
    const perCall = (used.user + used.system) / calls;
    best.set(name, Math.min(best.get(name) ?? Infinity, perCall));
  }
}
for (const [name, micros] of best) console.log(`${name.padEnd(32)} ${micros.toFixed(0).padStart(5)} µs CPU per call`);
await kernel.close();
