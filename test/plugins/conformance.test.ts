/**
 * The same checks over every folder in plugins/: a valid manifest, a README, a boot with only its
 * dependencies, contributions matching what the manifest declares, and a clean close.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { BUILTIN_PLUGINS_DIR, discoverPlugins, type PluginManifest } from '../../kernel';
import { collectRoutes } from '../../host';
import { bootTestKernel } from '../../host/testing';

const { found, problems } = discoverPlugins([BUILTIN_PLUGINS_DIR]);

const matches = (pattern: string, value: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  ).test(value);

describe('plugin conformance', () => {
  it('every plugin folder has a valid manifest', () => {
    const folders = readdirSync(BUILTIN_PLUGINS_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(problems.map((p) => p.message)).to.deep.equal([]);
    expect(found.map((p) => p.name).sort()).to.deep.equal(folders.sort());
  });

  for (const { name, dir, manifest } of found) {
    describe(name, () => {
      it('has a README and a register file', () => {
        expect(existsSync(path.join(dir, 'README.md')), 'README.md').to.equal(true);
        expect(
          ['register.ts', 'register.js'].some((f) => existsSync(path.join(dir, f))),
          'register.ts',
        ).to.equal(true);
      });

      it('ships one entities/<Name>.ts per entity in provides.entities, and no other', () => {
        const folder = path.join(dir, 'entities');
        const files = existsSync(folder)
          ? readdirSync(folder)
              .filter((f) => /^[A-Z][A-Za-z0-9]*\.(ts|js)$/.test(f))
              .map((f) => f.replace(/\.(ts|js)$/, ''))
          : [];
        expect(files.sort()).to.deep.equal([...(manifest as PluginManifest).provides.entities].sort());
      });

      it('boots with only its dependencies, contributes what it declares, and closes', async function () {
        this.timeout(60000);
        // bootTestKernel enables the plugin's dependencies, and nothing else.
        const testKernel = await bootTestKernel({ plugins: [name], logLevel: 'warn' });
        try {
          const provides = (manifest as PluginManifest).provides;
          for (const action of testKernel.kernel.actions.list().filter((x) => x.plugin === name)) {
            const id = `${action.entity}.${action.action}`;
            expect(
              provides.actions.some((p) => matches(p, id)),
              `${id} is not listed in provides.actions`,
            ).to.equal(true);
          }
          const routes = (await collectRoutes(testKernel.kernel)).filter((r) => r.plugin === name).map((r) => r.name);
          expect([...routes].sort(), 'routes vs provides.routes').to.deep.equal([...new Set(routes)].sort());
          for (const route of routes)
            expect(provides.routes, `route ${route} is not listed in provides.routes`).to.include(route);
          for (const service of provides.services)
            expect(
              testKernel.kernel.container.hasRegistration(service),
              `service ${service} is declared but not registered`,
            ).to.equal(true);
          // Every entity is declared by a plugin's manifest (loaded from its metadata file), none in code only.
          if (testKernel.kernel.container.hasRegistration('entities')) {
            const declared = testKernel.kernel.plugins.flatMap((p) => p.manifest.provides.entities).sort();
            const defined = testKernel.kernel.container.resolve<{ names(): string[] }>('entities').names();
            expect(defined, 'entities defined vs provides.entities of the booted plugins').to.deep.equal(declared);
          }
        } finally {
          await testKernel.close();
        }
      });
    });
  }
});
