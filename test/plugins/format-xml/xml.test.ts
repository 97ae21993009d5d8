import { expect } from 'chai';
import { formatRenderers } from '../../../host';
import { bootTestKernel } from '../../../host/testing';
import { renderCoreXml, renderWpXml, renderXml } from '../../../plugins/format-xml/xml';
import { xmlProblem } from '../../hostile/xml-check';

const HEAD = '<?xml version="1.0"?>\n      <ResultSet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ';

describe('format-xml', () => {
  describe('core flavour', () => {
    it('writes the preamble with the count attribute spacing of the reference', () => {
      expect(renderCoreXml({ is_error: 0, version: 3, count: 1, id: 5, values: { 5: { id: '5' } } })).to.equal(
        `${HEAD} count="1" >\n      <Result>\n    <id>5</id>\n</Result>\n</ResultSet>\n`,
      );
      expect(renderCoreXml({ is_error: 1, error_message: 'x' })).to.equal(
        `${HEAD}>\n      <Result>\n    <is_error>1</is_error>\n    <error_message>x</error_message>\n</Result>\n</ResultSet>\n`,
      );
    });

    it('indents nested arrays by depth*4; keys that are not XML names (numeric ones) get a _ prefix', () => {
      const xml = renderCoreXml({ count: 1, values: [{ id: '1', tags: ['a', 'b'], addr: { city: 'X' } }] });
      expect(xml).to.contain(
        '<Result>\n    <id>1</id>\n    <tags>\n        <_0>a</_0>\n        <_1>b</_1>\n    </tags>\n' +
          '    <addr>\n        <city>X</city>\n    </addr>\n</Result>\n',
      );
      expect(renderCoreXml({ values: [{ 'a b': 1, '': 2, 'x<y': 3 }] })).to.contain(
        '<_a_b>1</_a_b>\n    <_>2</_>\n    <_x_y>3</_x_y>',
      );
      expect(xmlProblem(xml)).to.equal(undefined);
    });

    it('shows characters XML 1.0 forbids as U+FFFD, in both flavours (core still prints \\x01 as a comma)', () => {
      const value = {
        count: 1,
        values: [{ id: '1', last_name: 'a\u0000b\u0001c\u0008\u000b\uFFFE\uFFFF\uD800d\t\n' }],
      };
      const core = renderCoreXml(value);
      expect(core).to.contain('<last_name>a\uFFFDb,c\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDd\t\n</last_name>');
      expect(xmlProblem(core)).to.equal(undefined);
      const wp = renderWpXml(value);
      expect(wp).to.contain('<last_name>a\uFFFDb\uFFFDc\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDd\t\n</last_name>');
      expect(xmlProblem(wp)).to.equal(undefined);
    });

    it('escapes only &, < and >; prints \\x01 as a comma, booleans as 1/empty, null as empty', () => {
      const xml = renderCoreXml({ a: `"q" 'x' <b>&`, sep: 'a\x01b', t: true, f: false, n: null });
      expect(xml).to.contain(`<a>"q" 'x' &lt;b&gt;&amp;</a>`);
      expect(xml).to.contain('<sep>a,b</sep>');
      expect(xml).to.contain('<t>1</t>');
      expect(xml).to.contain('<f></f>');
      expect(xml).to.contain('<n></n>');
    });

    it('gives an empty ResultSet for an error that holds an array but no values', () => {
      expect(renderCoreXml({ fields: ['x'], is_error: 1, error_message: 'm' })).to.equal(
        `${HEAD}>\n      </ResultSet>\n`,
      );
    });

    it('renders scalar values entries as id/value pairs', () => {
      expect(renderCoreXml({ count: 1, values: ['get'] })).to.contain(
        '<Result>\n<id>0</id><value>get</value></Result>\n',
      );
    });
  });

  describe('wp flavour', () => {
    it('writes DOMDocument-style XML: no indentation, _<key> children, self-closed empties', () => {
      expect(renderWpXml({ count: 1, values: [{ id: '1', tags: ['a', ''], e: '' }] })).to.equal(
        '<?xml version="1.0"?>\n<ResultSet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" count="1"><Result><id>1</id><tags><_0>a</_0><_1/></tags><e/></Result></ResultSet>\n',
      );
    });

    it('self-closes an empty result set and escapes text', () => {
      expect(renderWpXml({ count: 0, values: [] })).to.equal(
        '<?xml version="1.0"?>\n<ResultSet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" count="0"/>\n',
      );
      expect(renderWpXml({ a: 'x<y>&z' })).to.contain('<a>x&lt;y&gt;&amp;z</a>');
    });

    it('prefixes names that are not valid XML', () => {
      expect(renderWpXml({ values: [{ '1st': 'x' }] })).to.contain('<_1st>x</_1st>');
    });
  });

  it('picks the flavour from the render options and registers as xml / text/xml', async () => {
    expect(renderXml({ a: 1 }, { flavour: 'wp' })).to.match(/^<\?xml version="1.0"\?>\n<ResultSet/);
    expect(renderXml({ a: 1 }, {})).to.match(/^<\?xml version="1.0"\?>\n {6}<ResultSet/);
    const t = await bootTestKernel({ plugins: ['format-xml'] });
    try {
      const [r] = await t.kernel.hooks.run(formatRenderers);
      expect([r.name, r.mediaType]).to.deep.equal(['xml', 'text/xml']);
    } finally {
      await t.close();
    }
  });
});
