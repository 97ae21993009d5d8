/**
 * Validators generated at build time (bin/validators.mjs → dist/kernel/validators.cjs): the compiled tree checks
 * manifests, the host config, plugin configs, action params schemas and OAuth provider files with them instead of
 * compiling with ajv at start, and they must answer exactly as ajv compiling the same schema at run time does.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import * as fromSources from '../../kernel/schema';
import { configSchema } from '../../host/config';
import { PROVIDERS_FLAVOR } from '../../plugins/oauth-client';
import { ROOT } from '../support/cli';

type Schema = typeof fromSources;
const out = path.join(ROOT, 'test-artifacts', `dist-validators-${process.pid}`);
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

/** A new ajv of this flavour (one of the process's own may hold the schema's `$id` already). */
function freshAjv(flavor: fromSources.AjvFlavor): Ajv {
  const ajv = new Ajv(flavor.options);
  if (flavor.formats) addFormats(ajv);
  return ajv;
}

/** Runs both validators on a copy of `data` each: same verdict, same errors, same defaults filled in. */
function sameAnswer(generated: ValidateFunction, compiled: ValidateFunction, data: unknown) {
  const a = structuredClone(data);
  const b = structuredClone(data);
  expect(generated(a)).to.equal(compiled(b));
  expect(generated.errors).to.deep.equal(compiled.errors);
  expect(a).to.deep.equal(b);
}

describe('validators generated at build time (bin/validators.mjs)', function () {
  this.timeout(90000);
  let built: Schema;
  let table: Record<string, ValidateFunction>;

  before(async () => {
    const script = pathToFileURL(path.join(ROOT, 'bin/build.mjs')).href;
    const { build } = (await import(script)) as { build(dir: string): Promise<{ validators: number }> };
    expect((await build(out)).validators).to.be.greaterThan(5);
    built = (await import(pathToFileURL(path.join(out, 'kernel/schema.js')).href)) as Schema;
    table = createRequire(path.join(out, 'kernel/'))('./validators.cjs') as Record<string, ValidateFunction>;
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  it('the compiled tree uses them for the schemas every start checks, and answers as ajv does', () => {
    const manifest = json('kernel/manifest.schema.json');
    const cases: Array<[fromSources.AjvFlavor, object, unknown[]]> = [
      [
        fromSources.MANIFEST_FLAVOR,
        manifest,
        [json('plugins/entity-contact/manifest.json'), { name: 'Bad Name', version: 1, kind: 'other' }],
      ],
      [
        fromSources.PARAMS_FLAVOR,
        configSchema,
        [{}, { server: { port: '8081' } }, { server: { port: 'x' }, bogus: 1 }],
      ],
      [
        fromSources.PARAMS_FLAVOR,
        json('plugins/jobs/manifest.json').config as object,
        [{}, { intervalSeconds: '5', webhookUrl: 'not a uri' }],
      ],
      [
        PROVIDERS_FLAVOR,
        json('plugins/oauth-client/providers.schema.json'),
        [json('providers/gmail.dist.json'), { name: 1, class: [] }],
      ],
    ];
    for (const [flavor, schema, inputs] of cases) {
      const generated = built.compileWith(flavor, schema);
      expect(Object.values(table), JSON.stringify(schema).slice(0, 60)).to.include(generated);
      const compiled = freshAjv(flavor).compile(schema);
      for (const data of inputs) sameAnswer(generated, compiled, data);
    }
  });

  it("an action's params schema is checked against the meta-schema with the same messages", () => {
    for (const params of [
      { type: 'object', properties: { id: { type: 'integer' } } },
      { type: 'objekt' },
      { type: 'object', required: 'id', properties: { id: { minimum: 'one' } } },
    ])
      expect(built.schemaProblems(structuredClone(params))).to.equal(fromSources.schemaProblems(params));
  });

  it('a schema it does not hold (changed, or an external plugin’s) is compiled as before', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', default: 3 } } };
    const validate = built.compileShared(schema);
    expect(Object.values(table)).not.to.include(validate);
    const data: Record<string, unknown> = {};
    expect(validate(data)).to.equal(true);
    expect(data).to.deep.equal({ n: 3 });
  });
});
