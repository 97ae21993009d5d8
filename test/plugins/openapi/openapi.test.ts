/**
 * The OpenAPI document: valid OpenAPI 3.1 (by an independent validator), every APIv4 action of the
 * registry present, schemas that compile as JSON Schema 2020-12 and that real answers satisfy, the
 * gate on /crm/openapi.json, and the reference page with its locally served renderer.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { expect } from 'chai';
import supertest from 'supertest';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import { toOpenApiSchema } from '../../../plugins/openapi';
import { loginAgent, seedWebUsers } from '../../support/web';

type FormBody = {
  content: Record<string, { schema: { properties: Record<string, { $ref?: string }> } }>;
};
type Doc = {
  openapi: string;
  paths: Record<string, { post: { requestBody: FormBody; responses: Record<string, { $ref?: string }> } }>;
  components: {
    schemas: Record<string, object>;
    responses: Record<string, { content: object }>;
    securitySchemes: object;
  };
};

describe('openapi', function () {
  this.timeout(30000);
  let testKernel: TestKernel;
  let doc: Doc;
  before(async () => {
    testKernel = await bootTestKernel();
    await seedWebUsers(testKernel);
    doc = testKernel.kernel.container.resolve<{ document(): Doc }>('openApi').document();
  });
  after(() => testKernel?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('has a path for every APIv4 action in the registry and the APIv3 end-point, with the security schemes', () => {
    for (const listed of testKernel.kernel.actions.list({ version: 4 }))
      expect(doc.paths, `${listed.entity}.${listed.action}`).to.have.property(
        `/crm/ajax/api4/${listed.entity}/${listed.action}`,
      );
    expect(doc.paths).to.have.property('/crm/ajax/rest');
    expect(doc.components.securitySchemes).to.have.keys(['xCrmAuth', 'bearer', 'basic', 'session']);
    // A get answers JSON, or CSV with format=csv; other row actions JSON only; index is open to every call.
    const get = doc.paths['/crm/ajax/api4/Contact/get'].post;
    const create = doc.paths['/crm/ajax/api4/Contact/create'].post;
    expect(get.responses['200'].$ref).to.equal('#/components/responses/Api4Rows.Contact.csv');
    expect(doc.components.responses['Api4Rows.Contact.csv'].content).to.have.keys(['application/json', 'text/csv']);
    expect(create.responses['200'].$ref).to.equal('#/components/responses/Api4Rows.Contact');
    const form = (op: typeof get) => op.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
    expect(form(get)).to.have.keys(['params', 'index', 'format']);
    expect(form(get).format.$ref).to.equal('#/components/schemas/Api4Format');
    expect((doc.components.schemas.Api4Format as { enum: string[] }).enum).to.deep.equal(['json', 'csv']);
    expect(form(create)).to.have.keys(['params', 'index']);
    expect(doc.paths['/crm/ajax/api4/Contact/get'].post.responses['403'].$ref).to.equal(
      '#/components/responses/Api4Error403',
    );
  });

  it('describes rows that real answers satisfy (Contact.get, Email.get through APIv4)', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    ajv.addFormat('email', /@/);
    for (const [name, schema] of Object.entries(doc.components.schemas))
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    const admin = principalWith(['*'], 1);
    await testKernel.kernel.call({
      version: 4,
      entity: 'Contact',
      action: 'create',
      params: {
        values: { contact_type: 'Individual', first_name: 'Ada', last_name: 'Lovelace', birth_date: '1815-12-10' },
      },
      principal: admin,
    });
    for (const entity of ['Contact', 'Email']) {
      const result = (await testKernel.kernel.call({
        version: 4,
        entity,
        action: 'get',
        params: {},
        principal: admin,
      })) as {
        values: unknown[];
      };
      const validate = ajv.compile({ $ref: `#/components/schemas/${entity}` });
      for (const row of result.values) expect(validate(row), JSON.stringify(validate.errors)).to.equal(true);
    }
  });

  it('carries draft-07 tuples over to 2020-12 (prefixItems) and drops $schema/$id', () => {
    expect(
      toOpenApiSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
        },
      }),
    ).to.deep.equal({
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } },
    });
  });

  it('serves /crm/openapi.json to callers with access CRM only', async () => {
    const visitor = await supertest((await testKernel.app()).callback()).get('/crm/openapi.json');
    expect(visitor.status).to.equal(401);
    const agent = supertest.agent((await testKernel.app()).callback());
    await loginAgent(agent, 'staff');
    const res = await agent.get('/crm/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
  });

  it('renders the reference page with swagger-ui served from this service', async () => {
    const agent = supertest.agent((await testKernel.app()).callback());
    await loginAgent(agent, 'staff');
    const page = await agent.get('/crm/docs/api');
    expect(page.status).to.equal(200);
    expect(page.text)
      .to.include('src="/crm/assets/swagger-ui/swagger-ui-bundle.js"')
      .and.include('data-url="/crm/openapi.json"');
    expect(page.headers['content-security-policy']).to.include("script-src 'self';");
    const bundle = await agent.get('/crm/assets/swagger-ui/swagger-ui-bundle.js');
    expect(bundle.status).to.equal(200);
    expect(bundle.headers['content-type']).to.match(/javascript/);
    expect((await agent.get('/crm/assets/swagger-ui/package.json')).status).to.equal(404);
  });
});
