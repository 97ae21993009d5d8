/**
 * Providers: core files, test files in test mode only, the private folder overriding by name,
 * hook contributions, validation errors naming the file or plugin, classes, cache and flush.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import { isKernelError, type KernelError } from '../../../kernel';
import { GenericProvider } from '../../../plugins/oauth-client/drivers';
import {
  mergeProviders,
  providerNameFromFile,
  readProviderDir,
  type ProviderRegistry,
} from '../../../plugins/oauth-client/providers';
import { CORE_PROVIDERS_DIR } from '../../../plugins/oauth-client/register';
import { OAUTH_BASE_PLUGINS, tempDataDir } from '../../support/oauth-servers';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/oauth-plugins');
const client = { provider: 'x', guid: 'client-1' };

async function bootError(opts: Parameters<typeof bootTestKernel>[0]): Promise<KernelError> {
  try {
    const t = await bootTestKernel({ logLevel: 'silent', ...opts });
    await t.close();
  } catch (err) {
    if (!isKernelError(err)) throw err;
    return err;
  }
  throw new Error('expected the boot to fail');
}

describe('oauth-client providers', () => {
  describe('file names and folders', () => {
    it('derives the name from the file name', () => {
      expect(providerNameFromFile('gmail.dist.json')).to.equal('gmail');
      expect(providerNameFromFile('/x/beeceptor.com.json')).to.equal('beeceptor.com');
      expect(providerNameFromFile('test_example_1.test.json')).to.equal('test_example_1');
      expect(providerNameFromFile('ms-exchange.dist.json')).to.equal('ms-exchange');
    });

    it('skips *.test.json unless asked, and overrides a name given inside the file', () => {
      const prod = readProviderDir(CORE_PROVIDERS_DIR, { includeTests: false, label: 'providers' }).map((p) => p.name);
      expect(prod).to.include.members(['gmail', 'ms-exchange']);
      expect(prod.some((n) => n.startsWith('test_example'))).to.equal(false);
      const test = readProviderDir(CORE_PROVIDERS_DIR, { includeTests: true, label: 'providers' });
      expect(test.map((p) => p.name)).to.include.members(['test_example_1', 'test_example_2', 'test_example_3']);
      expect(test.find((p) => p.name === 'gmail')!.source).to.equal('providers/gmail.dist.json');
    });

    it('names the file of a malformed JSON file and of a file failing the schema', () => {
      const dir = tempDataDir();
      try {
        writeFileSync(path.join(dir, 'broken.json'), '{ "title": ');
        expect(() => readProviderDir(dir, { includeTests: false, label: 'here' })).to.throw(
          /OAuth provider file here\/broken\.json is not valid JSON/,
        );
        rmSync(path.join(dir, 'broken.json'));
        writeFileSync(
          path.join(dir, 'shape.json'),
          JSON.stringify({ title: 'T', options: { scopes: 'one' }, colour: 'red' }),
        );
        let err: KernelError | undefined;
        try {
          readProviderDir(dir, { includeTests: false, label: 'here' });
        } catch (caught) {
          err = caught as KernelError;
        }
        expect(err?.code).to.equal('E_OAUTH_PROVIDER_INVALID');
        expect(err?.message)
          .to.contain('file here/shape.json')
          .and.contain('options.scopes must be array')
          .and.contain("must NOT have additional properties 'colour'");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('merges by name, a later contribution replacing the earlier one whole, class defaulting to generic', () => {
      const merged = mergeProviders([
        {
          plugin: 'a',
          item: { name: 'p', title: 'First', tags: ['x'], options: { urlAuthorize: 'https://a/', scopes: ['s'] } },
        },
        { plugin: 'b', item: { name: 'p', title: 'Second', options: { urlAuthorize: 'https://b/' } } },
      ]);
      expect(merged).to.deep.equal([
        {
          name: 'p',
          title: 'Second',
          class: 'generic',
          tags: [],
          options: { urlAuthorize: 'https://b/' },
          source: 'plugin:b',
        },
      ]);
    });
  });

  describe('the merged list in a booted kernel', () => {
    let booted: TestKernel;
    let dataDir: string;
    let providers: ProviderRegistry;

    before(async () => {
      dataDir = tempDataDir();
      const priv = path.join(dataDir, 'oauth-providers');
      mkdirSync(priv, { recursive: true });
      writeFileSync(
        path.join(priv, 'gmail.json'),
        JSON.stringify({
          title: 'Private Gmail',
          options: { urlAuthorize: 'https://private.example/auth', urlAccessToken: 'https://private.example/token' },
        }),
      );
      writeFileSync(
        path.join(priv, 'overridden_privately.json'),
        JSON.stringify({ title: 'From the private folder', options: { urlAuthorize: 'https://private.example/auth' } }),
      );
      booted = await bootTestKernel({
        plugins: [...OAUTH_BASE_PLUGINS, 'oauth-extra-providers'],
        pluginDirs: [fixtures],
        config: { dataDir },
        logLevel: 'warn',
      });
      providers = booted.kernel.container.resolve('oauthProviders');
    });

    after(async () => {
      await booted?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('holds core files, test files (test mode), hook providers and private files', async () => {
      const names = (await providers.list()).map((p) => p.name);
      expect(names).to.include.members([
        'gmail',
        'ms-exchange',
        'test_example_1',
        'test_example_2',
        'test_example_3',
        'hooked_example',
        'special',
        'overridden_privately',
      ]);
      expect(names).to.deep.equal([...names].sort());
      const hooked = await providers.get('hooked_example');
      expect(hooked).to.include({ title: 'Hooked Example', class: 'generic', source: 'plugin:oauth-extra-providers' });
      expect(hooked.tags).to.deep.equal(['FromHook']);
    });

    it('keeps a class it does not know (like the reference) and fails only when it is used', async () => {
      const two = await providers.get('test_example_2');
      expect(two.class).to.equal('My\\Example2');
      expect(two.tags).to.deep.equal(['LaundryInstructions', 'MSRP', 'MattressMaterials']);
      let err: KernelError | undefined;
      await providers.driver('test_example_2').catch((e) => (err = e));
      expect(err?.code).to.equal('E_OAUTH_PROVIDER_CLASS');
      expect(err?.message).to.contain('My\\Example2');
    });

    it('lets the private folder replace core and plugin providers as a whole', async () => {
      const gmail = await providers.get('gmail');
      expect(gmail.title).to.equal('Private Gmail');
      expect(gmail.source).to.equal('<dataDir>/oauth-providers/gmail.json');
      expect(gmail.class).to.equal('generic'); // not "google": no deep merge with the core file
      expect(gmail.options.scopes).to.equal(undefined);
      expect((await providers.get('overridden_privately')).title).to.equal('From the private folder');
    });

    it('lets a plugin replace a core file provider of the same name', async () => {
      const three = await providers.get('test_example_3');
      expect(three).to.include({
        title: 'Third example, replaced by a plugin',
        source: 'plugin:oauth-extra-providers',
      });
      expect(three.options).to.deep.equal({ urlAuthorize: 'https://plugin.example/three' });
    });

    it('uses the implementation a plugin registered for the provider class', async () => {
      const driver = await providers.driver('special');
      expect(driver).to.be.instanceOf(GenericProvider);
      expect(driver.authorizationParams(client, {})).to.deep.equal({ fixture: 'yes' });
    });

    it('answers an unknown provider with E_OAUTH_PROVIDER_UNKNOWN', async () => {
      let err: KernelError | undefined;
      await providers.get('nope').catch((e) => (err = e));
      expect(err?.code).to.equal('E_OAUTH_PROVIDER_UNKNOWN');
      // The reference's message first, then the known providers and where more come from.
      expect(err?.message).to.match(/^Invalid provider name: nope \(known: [^;]+;/);
      expect(err?.message).to.contain('the oauth-providers-grant plugin adds');
      expect(err?.details?.known).to.include.members((await providers.list()).map((p) => p.name));
    });

    it('returns copies: a caller cannot alter the cached list', async () => {
      const a = await providers.get('hooked_example');
      a.title = 'changed';
      (await providers.list())[0].title = 'changed too';
      expect((await providers.get('hooked_example')).title).to.equal('Hooked Example');
    });

    it('keeps the list cached until flushed', async () => {
      const file = path.join(dataDir, 'oauth-providers', 'late_arrival.json');
      writeFileSync(file, JSON.stringify({ title: 'Late', options: { urlAuthorize: 'https://late.example/' } }));
      try {
        expect(await providers.has('late_arrival')).to.equal(false);
        providers.flush();
        expect((await providers.get('late_arrival')).title).to.equal('Late');
      } finally {
        rmSync(file);
        providers.flush();
      }
      expect(await providers.has('late_arrival')).to.equal(false);
    });

    it('reports a malformed private file after a flush, naming it', async () => {
      const file = path.join(dataDir, 'oauth-providers', 'bad.json');
      writeFileSync(file, JSON.stringify({ options: {} }));
      try {
        providers.flush();
        let err: KernelError | undefined;
        await providers.list().catch((e) => (err = e));
        expect(err?.code).to.equal('E_OAUTH_PROVIDER_INVALID');
        expect(err?.message)
          .to.contain('<dataDir>/oauth-providers/bad.json')
          .and.contain("must have required property 'title'");
      } finally {
        rmSync(file);
        providers.flush();
      }
      expect(await providers.has('gmail')).to.equal(true);
    });
  });

  describe('tenant replacement', () => {
    it('puts the client tenant, or common, into the authorization and token URLs only', async () => {
      const dataDir = tempDataDir();
      const booted = await bootTestKernel({ plugins: OAUTH_BASE_PLUGINS, config: { dataDir }, logLevel: 'warn' });
      try {
        const driver = await booted.kernel.container.resolve<ProviderRegistry>('oauthProviders').driver('ms-exchange');
        const record = { provider: 'ms-exchange', guid: 'g' };
        expect(driver.authorizeUrl(record)).to.equal('https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
        expect(driver.tokenUrl(record)).to.equal('https://login.microsoftonline.com/common/oauth2/v2.0/token');
        const tenanted = { ...record, tenant: '123-456-789' };
        expect(driver.authorizeUrl(tenanted)).to.equal(
          'https://login.microsoftonline.com/123-456-789/oauth2/v2.0/authorize',
        );
        expect(driver.tokenUrl(tenanted)).to.equal('https://login.microsoftonline.com/123-456-789/oauth2/v2.0/token');
        expect(driver.options(tenanted).urlResourceOwnerDetails).to.equal('{{use_id_token}}');
        const plain = await booted.kernel.container
          .resolve<ProviderRegistry>('oauthProviders')
          .driver('test_example_1');
        expect(plain.authorizeUrl(tenanted)).to.equal('https://example.com/one/auth');
      } finally {
        await booted.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('boot errors', () => {
    it('stops the start on a malformed private provider file, naming the file', async () => {
      const dataDir = tempDataDir();
      mkdirSync(path.join(dataDir, 'oauth-providers'));
      writeFileSync(path.join(dataDir, 'oauth-providers', 'typo.json'), '{"title": "x", "options": {},}');
      try {
        const err = await bootError({ plugins: OAUTH_BASE_PLUGINS, config: { dataDir } });
        expect(err.code).to.equal('E_OAUTH_PROVIDER_INVALID');
        expect(err.message).to.contain('<dataDir>/oauth-providers/typo.json is not valid JSON');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('names the plugin of a malformed hook provider', async () => {
      const err = await bootError({
        plugins: [...OAUTH_BASE_PLUGINS, 'oauth-bad-provider'],
        pluginDirs: [fixtures],
        config: { dataDir: tempDataDir() },
      });
      expect(err.code).to.equal('E_OAUTH_PROVIDER_INVALID');
      expect(err.message)
        .to.contain('"broken" from plugin oauth-bad-provider')
        .and.contain('options.scopes must be array');
    });

    it('refuses two plugins registering the same provider class, naming both', async () => {
      const err = await bootError({
        plugins: [...OAUTH_BASE_PLUGINS, 'oauth-dup-class'],
        pluginDirs: [fixtures],
        config: { dataDir: tempDataDir() },
      });
      expect(err.code).to.equal('E_HOOK_DUPLICATE');
      expect(err.message).to.equal(
        'OAuth provider class "generic" is contributed by both plugin oauth-client and plugin oauth-dup-class',
      );
    });

    it('refuses two plugins claiming the same grant type or alias, naming both', async () => {
      const err = await bootError({
        plugins: [...OAUTH_BASE_PLUGINS, 'oauth-grant-password', 'oauth-dup-grant'],
        pluginDirs: [fixtures],
        config: { dataDir: tempDataDir() },
      });
      expect(err.code).to.equal('E_HOOK_DUPLICATE');
      expect(err.message).to.match(
        /^OAuth grant type "userPassword" is contributed by both plugin oauth-(grant-password|dup-grant) and plugin oauth-(grant-password|dup-grant)$/,
      );
    });

    it('leaves test providers out outside test mode', async () => {
      const t = await bootTestKernel({
        plugins: OAUTH_BASE_PLUGINS,
        config: { mode: 'development', dataDir: tempDataDir(), pluginConfig: { users: { firstRun: false } } },
        logLevel: 'warn',
      });
      try {
        const names = (await t.kernel.container.resolve<ProviderRegistry>('oauthProviders').list()).map((p) => p.name);
        expect(names).to.include('gmail');
        expect(names.filter((n) => n.startsWith('test_'))).to.deep.equal([]);
      } finally {
        await t.close();
      }
    });
  });
});
