import { expect } from 'chai';
import { formatRenderers } from '../../../host';
import { bootTestKernel } from '../../../host/testing';
import { renderJson } from '../../../plugins/format-json/json';

describe('format-json', () => {
  it('writes like json_encode with unescaped slashes and Unicode, escaping U+2028/U+2029', () => {
    expect(renderJson({ url: 'https://a.example/x', name: 'Çelik 東京', sep: 'a\u2028b\u2029c' })).to.equal(
      '{"url":"https://a.example/x","name":"Çelik 東京","sep":"a\\u2028b\\u2029c"}',
    );
  });

  it('pretty-prints with PHP JSON_PRETTY_PRINT layout (4 spaces, empty containers inline)', () => {
    expect(renderJson({ a: [], b: {}, c: [1, { d: null }] }, { prettyprint: 1 })).to.equal(
      '{\n    "a": [],\n    "b": {},\n    "c": [\n        1,\n        {\n            "d": null\n        }\n    ]\n}',
    );
  });

  it('renders undefined as null', () => {
    expect(renderJson(undefined)).to.equal('null');
  });

  it('contributes the json renderer through format.renderers', async () => {
    const t = await bootTestKernel({ plugins: ['format-json'] });
    try {
      const [r] = await t.kernel.hooks.run(formatRenderers);
      expect(r.name).to.equal('json');
      expect(r.mediaType).to.equal('application/json');
      expect(r.render({ a: '/' }, {})).to.equal('{"a":"/"}');
    } finally {
      await t.close();
    }
  });
});
