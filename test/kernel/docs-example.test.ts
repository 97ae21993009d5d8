/** The first plugin in docs/plugin-authoring.md must work as written: extract it, boot it, call it. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bootTestKernel, principalWith } from '../../host/testing';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('docs/plugin-authoring.md', () => {
  it('the first plugin works as written', async () => {
    const doc = readFileSync(path.join(root, 'docs/plugin-authoring.md'), 'utf8');
    const blocks = [...doc.matchAll(/```(json|ts)\n([\s\S]*?)```/g)].map((m) => m[2]);
    const manifest = blocks[0];
    const register = blocks[1]
      .replace("'../../kernel'", JSON.stringify(path.join(root, 'kernel/index.ts')))
      .replace("'../../host'", JSON.stringify(path.join(root, 'host/index.ts')));
    const config = JSON.parse(blocks[2]);
    const dir = mkdtempSync(path.join(tmpdir(), 'crm-doc-'));
    mkdirSync(path.join(dir, 'greeter'));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(path.join(dir, 'greeter', 'manifest.json'), manifest);
    writeFileSync(path.join(dir, 'greeter', 'register.ts'), register);
    const t = await bootTestKernel({
      plugins: config.enable,
      pluginDirs: [dir],
      config: { pluginConfig: config.pluginConfig },
    });
    try {
      const res = await t.kernel.call({
        entity: 'Greeting',
        action: 'get',
        params: { name: 'Ann' },
        principal: principalWith(['access CRM']),
      });
      expect(res).to.deep.equal({ is_error: 0, version: 3, count: 1, values: [{ text: 'Hi, Ann' }] });
      const http = await t.http();
      expect((await http.get('/hello')).body).to.deep.equal({ text: 'Hi!' });
    } finally {
      await t.close();
    }
  });
});
