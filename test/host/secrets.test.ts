/** Secrets at rest: the secret box (AES-256-GCM with key ids), the key file, and encrypted entity fields. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { cliCommands, cliContext, createSecretBox, finishConfig, SecretBox, type CliCommand } from '../../host';
import { bootTestKernel, failure, type TestKernel } from '../../host/testing';
import type { EntityRegistry, EntityStore } from '../../plugins/entity-core';
import type { Knex } from 'knex';

/** The part of oauth-client's `oauthStore` service these tests use. */
interface OAuthStore {
  createClient(db: Knex, values: Record<string, unknown>): Promise<Record<string, any>>;
  clientById(db: Knex, id: number): Promise<Record<string, any>>;
  readToken(db: Knex, storage: string, id: number): Promise<Record<string, any>>;
}

const K1 = randomBytes(32);
const K2 = randomBytes(32);
const boxOf = (...keys: Array<[string, Buffer]>) =>
  new SecretBox(
    keys.map(([kid, key]) => ({ kid, key })),
    'config',
  );
const codeOf = (fn: () => unknown): { code?: string; message: string } => {
  try {
    fn();
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('expected a failure');
};

describe('secrets at rest', function () {
  this.timeout(60000);

  describe('SecretBox', () => {
    it('round-trips, in the enc:v1:<kid>:<iv>:<tag>:<ciphertext> format, never the same text twice', () => {
      const box = boxOf(['a', K1]);
      const one = box.encrypt('hunter2 ✓');
      expect(one).to.match(/^enc:v1:a:[\w-]{16}:[\w-]{22}:[\w-]+$/);
      expect(one).not.to.contain('hunter2');
      expect(box.encrypt('hunter2 ✓')).not.to.equal(one);
      expect(box.decrypt(one)).to.equal('hunter2 ✓');
      // A row written before encryption is read as it is.
      expect(box.decrypt('legacy plain text')).to.equal('legacy plain text');
    });

    it('reads values of every configured key; the first key encrypts', () => {
      const old = boxOf(['a', K1]).encrypt('s1');
      const rotated = boxOf(['b', K2], ['a', K1]);
      expect(rotated.decrypt(old)).to.equal('s1');
      expect(rotated.encrypt('s1')).to.match(/^enc:v1:b:/);
      expect(rotated.needsRotation(old)).to.equal(true);
      expect(rotated.needsRotation(rotated.encrypt('x'))).to.equal(false);
    });

    it('a wrong key, a missing key or an altered value is a clear error, never garbage', () => {
      const stored = boxOf(['a', K1]).encrypt('s1');
      const wrong = codeOf(() => boxOf(['a', K2]).decrypt(stored));
      expect(wrong.code).to.equal('E_SECRET_KEY');
      expect(wrong.message).to.contain('cannot be decrypted with key "a"');
      const missing = codeOf(() => boxOf(['b', K2]).decrypt(stored));
      expect(missing.code).to.equal('E_SECRET_KEY');
      expect(missing.message).to.contain('encrypted with key "a", which is not configured');
      const altered = stored.slice(0, -2) + (stored.endsWith('A') ? 'BB' : 'AA');
      expect(codeOf(() => boxOf(['a', K1]).decrypt(altered)).code).to.equal('E_SECRET_KEY');
    });

    it('without configured keys: generates a key file (0600) in the data folder on first run and says so, once', () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-keys-'));
      const config = finishConfig({ dataDir });
      const said: Array<Record<string, unknown>> = [];
      const logger = { warn: (o: Record<string, unknown>, m: string) => said.push({ ...o, m }) } as never;
      const first = createSecretBox(config, logger, {});
      const file = path.join(dataDir, 'secret-keys.json');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(said).to.have.length(1);
      expect(String(said[0].m)).to.contain('generated one');
      expect(JSON.stringify(said)).not.to.contain(JSON.parse(readFileSync(file, 'utf8')).keys[0].key);
      const again = createSecretBox(config, logger, {});
      expect(said).to.have.length(1);
      expect(again.decrypt(first.encrypt('x'))).to.equal('x');
      // --new-key: a new current key first in the file, the old one kept.
      const kid = again.addKey();
      const reread = createSecretBox(config, logger, {});
      expect(reread.currentKid).to.equal(kid);
      expect(reread.kids).to.have.length(2);
      expect(reread.decrypt(first.encrypt('y'))).to.equal('y');
    });

    it('CRM_SECRET_KEYS wins and is checked', () => {
      const config = finishConfig({ database: { memory: true } });
      const box = createSecretBox(config, undefined, {
        CRM_SECRET_KEYS: `k2:${K2.toString('base64')},k1:${K1.toString('base64')}`,
      });
      expect(box.kids).to.deep.equal(['k2', 'k1']);
      expect(box.source).to.equal('env');
      expect(() => createSecretBox(config, undefined, { CRM_SECRET_KEYS: 'k1:dG9vIHNob3J0' })).to.throw(/32 bytes/);
      expect(() => addKeyOf(box)).to.throw(/CRM_SECRET_KEYS/);
    });
  });

  describe('encrypted entity fields (OAuth client secrets and tokens)', () => {
    let harness: TestKernel;
    before(async () => {
      harness = await bootTestKernel({
        plugins: ['oauth-client', 'api4'],
        config: { secrets: { keys: [{ kid: 'a', key: K1.toString('base64') }] } },
      });
    });
    after(() => harness?.close());

    it('the database column holds ciphertext; the store and the API read the plain value', async () => {
      const store = harness.kernel.container.resolve<OAuthStore>('oauthStore');
      const client = await store.createClient(harness.kernel.db, {
        provider: 'test_example_1',
        guid: 'client-1',
        secret: 'client-secret-1',
      });
      expect(client.secret).to.equal('client-secret-1');
      const raw = await harness.kernel.db('crm_oauth_client').where('id', Number(client.id)).first('secret', 'guid');
      expect(raw.secret).to.match(/^enc:v1:a:/);
      expect(raw.guid).to.equal('client-1');
      const got = (await harness.kernel.api.call({
        version: 4,
        entity: 'OAuthClient',
        action: 'get',
        params: { select: ['secret'], where: [['id', '=', client.id]] },
        trusted: true,
      })) as { values?: Array<{ secret: string }> } | Array<{ secret: string }>;
      const rows = Array.isArray(got) ? got : got.values!;
      expect(rows[0].secret).to.equal('client-secret-1');

      const entities = harness.kernel.container.resolve<EntityRegistry>('entities');
      const tokens = harness.kernel.container.resolve<EntityStore>('entityStore');
      const id = await tokens.insert(harness.kernel.db, entities.get('OAuthSysToken'), {
        client_id: client.id,
        access_token: 'access-1',
        refresh_token: 'refresh-1',
        expires: 0,
        raw: { token_type: 'Bearer', id_token: 'provider-secret-1' },
      });
      const rawToken = await harness.kernel.db(entities.get('OAuthSysToken').table).where({ id }).first();
      expect(rawToken.access_token).to.match(/^enc:v1:a:/);
      expect(rawToken.refresh_token).to.match(/^enc:v1:a:/);
      // The provider's raw answer may carry provider secrets (id tokens): sealed as JSON text, read as a structure.
      expect(rawToken.raw).to.match(/^enc:v1:a:/);
      const read = await store.readToken(harness.kernel.db, 'OAuthSysToken', id);
      expect([read.access_token, read.refresh_token]).to.deep.equal(['access-1', 'refresh-1']);
      expect(read.raw).to.deep.equal({ token_type: 'Bearer', id_token: 'provider-secret-1' });
    });

    it('crm secrets rotate re-encrypts every row (plain legacy rows too) with the newest key; old keys still read', async () => {
      const db = harness.kernel.db;
      const store = harness.kernel.container.resolve<OAuthStore>('oauthStore');
      const legacy = await store.createClient(db, { provider: 'test_example_1', guid: 'legacy', secret: 'x' });
      await db('crm_oauth_client').where('id', Number(legacy.id)).update({ secret: 'legacy-plain-secret' });
      expect((await store.clientById(db, Number(legacy.id))).secret).to.equal('legacy-plain-secret');

      const rotated = boxOf(['b', K2], ['a', K1]);
      const before = await db('crm_oauth_client').select('id', 'secret').orderBy('id');
      for (const row of before) expect(rotated.decrypt(row.secret)).to.be.a('string'); // old rows read with the new set
      const rotate = ((await harness.kernel.hooks.run(cliCommands)) as CliCommand[]).find(
        (c) => c.name === 'secrets rotate',
      )!;
      const base = cliContext(harness.kernel);
      const services = new Proxy(base.services, {
        get: (target, key) => (key === 'secretBox' ? rotated : Reflect.get(target, key)),
      });
      const out = await rotate.run([], {}, { ...base, services });
      expect(out).to.match(/Re-encrypted \d+ value\(s\) in \d+ row\(s\) with key b\./);
      const after = await db('crm_oauth_client').select('id', 'secret').orderBy('id');
      for (const row of after) expect(row.secret).to.match(/^enc:v1:b:/);
      expect(after.map((r) => rotated.decrypt(r.secret))).to.deep.equal(before.map((r) => rotated.decrypt(r.secret)));
      expect(rotated.decrypt(after.find((r) => r.id === Number(legacy.id))!.secret)).to.equal('legacy-plain-secret');
      // Nothing left to do the second time.
      expect(await rotate.run([], {}, { ...base, services })).to.contain('Re-encrypted 0 value(s)');

      // This kernel still has only key "a": a clear error naming the missing key, not garbage.
      const err = await failure(store.clientById(db, Number(legacy.id)));
      expect(err.code).to.equal('E_SECRET_KEY');
      expect(err.message).to.contain('key "b", which is not configured');
    });
  });
});

function addKeyOf(box: SecretBox): string {
  return box.addKey();
}
