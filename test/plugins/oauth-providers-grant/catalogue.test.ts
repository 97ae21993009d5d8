/** grant's catalogue as providers: the mapping, the hook contribution, and who wins a name clash. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import type { ProviderRegistry } from '../../../plugins/oauth-client';
import { grantProviders, loadGrantCatalogue, mapGrantEntry } from '../../../plugins/oauth-providers-grant';
import { OAUTH_BASE_PLUGINS, tempDataDir } from '../../support/oauth-servers';

describe('oauth-providers-grant', () => {
  describe('mapping', () => {
    it('maps an OAuth 2 entry to our provider shape, with grant\'s default "," separator', () => {
      const { oauth, profile } = loadGrantCatalogue();
      expect(mapGrantEntry('github', oauth.github, profile.github?.profile_url)).to.deep.equal({
        name: 'github',
        title: 'github (grant catalogue)',
        tags: ['grant-catalogue'],
        options: {
          urlAuthorize: oauth.github.authorize_url,
          urlAccessToken: oauth.github.access_url,
          urlResourceOwnerDetails: profile.github.profile_url,
          scopeSeparator: oauth.github.scope_delimiter ?? ',',
        },
      });
      expect(mapGrantEntry('amazon', oauth.amazon)!.options.scopeSeparator).to.equal(' ');
    });

    it('turns [subdomain] into {{tenant}} and flags tenancy', () => {
      const aha = mapGrantEntry('aha', {
        authorize_url: 'https://[subdomain].aha.io/oauth/authorize',
        access_url: 'https://[subdomain].aha.io/oauth/token',
        oauth: 2,
      })!;
      expect(aha.options).to.include({
        urlAuthorize: 'https://{{tenant}}.aha.io/oauth/authorize',
        urlAccessToken: 'https://{{tenant}}.aha.io/oauth/token',
        tenancy: true,
      });
    });

    it('skips OAuth 1 entries and entries without both URLs', () => {
      expect(mapGrantEntry('x', { request_url: 'r', authorize_url: 'a', access_url: 'b', oauth: 1 })).to.equal(null);
      expect(mapGrantEntry('y', { authorize_url: 'a', oauth: 2 })).to.equal(null);
    });

    it('offers every OAuth 2 provider of the catalogue (well over a hundred), or only the chosen ones', () => {
      const all = grantProviders();
      const oauth2 = Object.values(loadGrantCatalogue().oauth).filter((e) => e.oauth === 2).length;
      expect(all.length).to.equal(oauth2).and.to.be.above(150);
      expect(grantProviders(['github', 'gitlab', '500px']).map((p) => p.name)).to.deep.equal(['github', 'gitlab']);
    });
  });

  describe('in a booted kernel', () => {
    let testKernel: TestKernel;
    let dataDir: string;
    let providers: ProviderRegistry;

    before(async () => {
      dataDir = tempDataDir();
      mkdirSync(path.join(dataDir, 'oauth-providers'));
      writeFileSync(
        path.join(dataDir, 'oauth-providers', 'github.json'),
        JSON.stringify({
          title: 'Our GitHub',
          options: { urlAuthorize: 'https://github.example/auth', scopeSeparator: ' ' },
        }),
      );
      testKernel = await bootTestKernel({
        plugins: [...OAUTH_BASE_PLUGINS, 'oauth-providers-grant'],
        config: { dataDir },
        logLevel: 'warn',
      });
      providers = testKernel.kernel.container.resolve('oauthProviders');
    });

    after(async () => {
      await testKernel?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('adds the catalogue to the provider list next to the core files', async () => {
      const list = await providers.list();
      expect(list.length).to.be.above(150);
      expect(list.map((p) => p.name)).to.include.members(['gitlab', 'slack', 'gmail', 'ms-exchange']);
      expect((await providers.get('gitlab')).source).to.equal('plugin:oauth-providers-grant');
    });

    it('lets a file win over a catalogue entry of the same name', async () => {
      const github = await providers.get('github');
      expect(github).to.include({ title: 'Our GitHub', source: '<dataDir>/oauth-providers/github.json' });
      expect(github.tags).to.deep.equal([]);
    });

    it('fills a subdomain provider from the client tenant', async () => {
      const { oauth } = loadGrantCatalogue();
      const name = Object.keys(oauth).find(
        (k) => oauth[k].oauth === 2 && oauth[k].authorize_url!.includes('[subdomain]'),
      )!;
      const driver = await providers.driver(name);
      const url = driver.authorizeUrl({ provider: name, guid: 'g', tenant: 'acme' });
      expect(url).to.equal(oauth[name].authorize_url!.replace('[subdomain]', 'acme'));
    });
  });
});
