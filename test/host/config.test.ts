import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { KernelError } from '../../kernel';
import { loadConfig } from '../../host';

function configError(fn: () => unknown): KernelError {
  try {
    fn();
  } catch (err) {
    return err as KernelError;
  }
  throw new Error('expected a config error');
}

describe('kernel/config', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-config-'));
  const file = (name: string, text: string) => {
    const f = path.join(dir, name);
    writeFileSync(f, text);
    return f;
  };

  it('fills defaults when there is no file', () => {
    const c = loadConfig({ file: undefined, env: { CRM_CONFIG: undefined } as NodeJS.ProcessEnv, overrides: {} });
    expect(c.server).to.include({ host: '127.0.0.1', port: 8080 });
    expect(c.database.url).to.equal(undefined);
    expect(c.dataDir).to.equal('./var');
  });

  it('lets environment variables override the file', () => {
    const f = file('env.json', JSON.stringify({ server: { port: 9000 } }));
    const c = loadConfig({ file: f, env: { PORT: '9100', DATABASE_URL: 'postgres://u@h/db', CRM_DATA_DIR: '/data' } });
    expect(c.server.port).to.equal(9100);
    expect(c.database.url).to.equal('postgres://u@h/db');
    expect(c.dataDir).to.equal('/data');
  });

  it('names the key path and what was expected for a bad value', () => {
    const err = configError(() =>
      loadConfig({
        file: file('bad.json', JSON.stringify({ server: { port: 'high' }, log: { level: 'loud' } })),
        env: {},
      }),
    );
    expect(err.code).to.equal('E_CONFIG_INVALID');
    expect(err.message)
      .to.contain('server.port must be integer')
      .and.contain('log.level must be equal to one of the allowed values');
  });

  it('refuses unknown keys, a file that is not JSON, and a named file that is missing', () => {
    expect(configError(() => loadConfig({ file: file('extra.json', '{"colour":"red"}'), env: {} })).message).to.contain(
      "'colour'",
    );
    expect(configError(() => loadConfig({ file: file('broken.json', '{'), env: {} })).message).to.contain(
      'not valid JSON',
    );
    expect(configError(() => loadConfig({ file: path.join(dir, 'absent.json'), env: {} })).message).to.contain(
      'does not exist',
    );
  });

  it('takes the enabled plugin list from CRM_PLUGINS', () => {
    expect(loadConfig({ file: file('p.json', '{}'), env: { CRM_PLUGINS: 'system, rest-api3' } }).plugins).to.deep.equal(
      ['system', 'rest-api3'],
    );
  });
});
