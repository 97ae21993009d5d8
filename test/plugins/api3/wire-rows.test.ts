/**
 * A compact JSON APIv3 get is answered as pre-rendered text: each record written straight from its row by Node
 * (the default), or by PostgreSQL (ADR 0017, option `rest-api3.rowsFromDatabase`). Either must be
 * byte-identical to the answer the records as objects render to. An indented (`prettyprint`) answer still takes
 * the object path, so each compact answer is compared with the pretty one made compact again by the same renderer.
 */
import { expect } from 'chai';
import { isWireJson, type WireRequest } from '../../../kernel';
import { principalWith, type TestKernel } from '../../../host/testing';
import { sqlDuring } from '../../../host/db';
import { renderJson } from '../../../plugins/format-json';
import { BASE_PLUGINS, bootRest } from '../rest-api3/helpers';

const ADMIN = principalWith(['*']);
const HEADERS = { 'x-test-perms': '*', 'x-test-flow': 'param' };
const AWKWARD = `Ann "Q" \\ / é ✓ \u2028 \u0001\t\n end`;

const ROWS_FROM_DATABASE = { pluginConfig: { 'rest-api3': { rowsFromDatabase: true } } };
/** The statement PostgreSQL answers a wire-form read with: the id as `k`, then each value as text. */
const WIRE_READ = /^select "t"\."id"::text as k, /;

for (const byDatabase of [true, false])
  describe(`APIv3 get rendered as text ${byDatabase ? 'by PostgreSQL (ADR 0017)' : 'by Node, straight from the rows'}`, () => {
    let testKernel: TestKernel;
    const wire: WireRequest = byDatabase ? 'json-database' : 'json';
    const call = (entity: string, action: string, params: Record<string, unknown>, wire?: WireRequest) =>
      testKernel.kernel.call({ version: 3, entity, action, params, principal: ADMIN, wire });

    before(async () => {
      testKernel = await bootRest({
        plugins: [...BASE_PLUGINS, 'entity-option', 'entity-contact'],
        config: byDatabase ? ROWS_FROM_DATABASE : {},
      });
      const contacts: Array<[Record<string, unknown>, Record<string, unknown>?]> = [
        [
          {
            contact_type: 'Individual',
            first_name: AWKWARD,
            last_name: 'Zed',
            birth_date: '1980-02-29',
            do_not_email: 1,
            gender_id: 1,
          },
          { city: 'Paris', geo_code_1: 48.8566, geo_code_2: -0.5 },
        ],
        [{ contact_type: 'Organization', organization_name: 'Acme/„Ltd“' }],
        [
          { contact_type: 'Individual', first_name: 'Tiny', last_name: 'Geo' },
          { geo_code_1: 0.00001, geo_code_2: 1e21 },
        ],
      ];
      for (const [contact, address] of contacts) {
        const { id } = (await call('Contact', 'create', contact)) as { id: number };
        await call('Email', 'create', { contact_id: id, email: `c${id}@example.org` });
        if (address) await call('Address', 'create', { contact_id: id, location_type_id: 1, ...address });
      }
    });
    after(() => testKernel.close());

    /** The compact answer over HTTP, and the Node path's answer for the same call (pretty, made compact). */
    async function both(query: string): Promise<[string, string]> {
      const http = await testKernel.http();
      const compact = await http.get(`/crm/ajax/rest?${query}&json=1`).set(HEADERS);
      const pretty = await http.get(`/crm/ajax/rest?${query}&json=1&prettyprint=1`).set(HEADERS);
      return [compact.text, renderJson(JSON.parse(pretty.text))];
    }

    it('is taken for the default page (option labels included) and answers the same bytes as the object path', async () => {
      // Contacts 1 and 2: the third's address has doubles only Node prints as JavaScript does.
      const params = { id: { IN: [1, 2] }, options: { limit: 25, sort: 'sort_name' } };
      const wired = await call('Contact', 'get', params, wire);
      expect(isWireJson(wired), 'the rows were rendered as text').to.equal(true);
      const plain = await call('Contact', 'get', params);
      expect(renderJson(wired)).to.equal(renderJson(plain));
      const first = JSON.parse(renderJson(wired)).values['1'];
      expect(first).to.include({ first_name: AWKWARD, gender: 'Female', birth_date: '1980-02-29', city: 'Paris' });
    });

    for (const [name, query] of [
      ['the default return list, keyed by id', 'entity=Contact&action=get'],
      ['sequential, sorted by name', 'entity=Contact&action=get&sequential=1&options[sort]=sort_name DESC'],
      ['one record (id in the envelope)', 'entity=Contact&action=get&id=2'],
      ['no record', 'entity=Contact&action=get&id=999'],
      [
        'a return list with a joined path',
        'entity=Contact&action=get&return=display_name,email,do_not_email,birth_date',
      ],
      ['addresses: doubles, including ones JavaScript prints otherwise', 'entity=Address&action=get'],
      ['emails', 'entity=Email&action=get&sequential=1'],
    ])
      it(`answers ${name} byte for byte as the object path does`, async () => {
        const [fast, node] = await both(query);
        expect(JSON.parse(fast).is_error).to.equal(0);
        expect(fast).to.equal(node);
      });

    it('has PostgreSQL render the rows over HTTP only with rest-api3.rowsFromDatabase (off by default)', async function () {
      if (!byDatabase) this.skip(); // the option's own test
      const http = await testKernel.http();
      const on = await sqlDuring(testKernel.kernel.db, () =>
        http.get('/crm/ajax/rest?entity=Contact&action=get&json=1').set(HEADERS),
      );
      expect(on.some((sql) => WIRE_READ.test(sql))).to.equal(true);
      const plain = await bootRest({ plugins: [...BASE_PLUGINS, 'entity-option', 'entity-contact'] });
      try {
        const off = await sqlDuring(plain.kernel.db, async () =>
          expect(
            (await (await plain.http()).get('/crm/ajax/rest?entity=Contact&action=get&json=1').set(HEADERS)).status,
          ).to.equal(200),
        );
        expect(off.some((sql) => /^select /.test(sql))).to.equal(true);
        expect(off.some((sql) => WIRE_READ.test(sql))).to.equal(false);
      } finally {
        await plain.close();
      }
    });

    it('leaves the values to Node where PostgreSQL would print one otherwise', async () => {
      const sqls = await sqlDuring(testKernel.kernel.db, async () => {
        const wired = await call('Address', 'get', { contact_id: 3 }, wire);
        const values = (JSON.parse(renderJson(wired)) as { values: Record<string, Record<string, string>> }).values;
        expect(Object.values(values)[0]).to.include({ geo_code_1: '0.00001', geo_code_2: '1e+21' });
      });
      // PostgreSQL was asked first when the option is on, and its rows were not used.
      expect(sqls.some((sql) => WIRE_READ.test(sql))).to.equal(byDatabase);
    });

    it('writes a value JSON must escape as JSON.stringify does (quotes, backslashes, controls, beyond the BMP)', async () => {
      const odd = 'a "q" \\ \u0001\u001f\t\n 😀 \u2028 é end';
      const { id } = (await call('Contact', 'create', {
        contact_type: 'Individual',
        first_name: odd,
        last_name: 'Odd',
      })) as {
        id: number;
      };
      const params = { id, return: ['first_name', 'last_name'] };
      const wired = await call('Contact', 'get', params, wire);
      expect(isWireJson(wired)).to.equal(true);
      expect(renderJson(wired)).to.equal(renderJson(await call('Contact', 'get', params)));
      expect(
        (JSON.parse(renderJson(wired)) as { values: Record<string, { first_name: string }> }).values[id].first_name,
      ).to.equal(odd);
    });

    it('is never given to in-process callers, chains or other formats', async () => {
      expect(isWireJson(await call('Contact', 'get', { id: 1 }))).to.equal(false);
      const http = await testKernel.http();
      const chained = await http
        .get('/crm/ajax/rest?entity=Contact&action=get&id=1&json=1&api.Email.get=1')
        .set(HEADERS);
      expect(chained.body.values['1'].api_Email_get.values).to.have.length(1);
      // A chain answered for all rows at once ($value references) reads its answer's records too.
      const json = encodeURIComponent(
        JSON.stringify({ sequential: 1, 'api.Contact.get': { id: '$value.contact_id' } }),
      );
      const batched = await http.get(`/crm/ajax/rest?entity=Email&action=get&json=${json}`).set(HEADERS);
      const counts = (batched.body.values as Array<Record<string, { count: number }>>).map(
        (row) => row['api.Contact.get'].count,
      );
      expect(counts.length).to.be.greaterThan(1);
      expect(counts.every((count) => count === 1)).to.equal(true);
      const xml = await http.get('/crm/ajax/rest?entity=Contact&action=get&id=1').set(HEADERS);
      expect(xml.text).to.include('<first_name>Ann');
    });
  });
