import { expect } from 'chai';
import fc from 'fast-check';
import { buildParams, buildWpParams, isNumeric } from '../../../plugins/rest-api3/request';
import { parseQueryString, splitName, toJs, topToJs, urldecode } from '../../../plugins/rest-api3/php-params';

type Tree = string | Tree[] | { [k: string]: Tree };

/** http_build_query-like encoding: scalar lists with `[]`, everything else with explicit keys. */
function encode(prefix: string, value: Tree, out: string[]): void {
  if (typeof value === 'string') {
    out.push(`${prefix}=${encodeURIComponent(value)}`);
  } else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    for (const v of value) out.push(`${prefix}${encodeURIComponent('[]')}=${encodeURIComponent(v as string)}`);
  } else {
    for (const [k, v] of Object.entries(value)) encode(`${prefix}${encodeURIComponent(`[${k}]`)}`, v, out);
  }
}

/** What PHP gives back: a map keyed 0..n-1 (in order) is a list. */
function expected(value: Tree): unknown {
  if (typeof value === 'string') return value;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => expected(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, expected(v)]));
}

const scalar = fc.string({ unit: 'grapheme', maxLength: 6 });
const key = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5 }).filter((k) => !k.includes(']') && k !== '__proto__'),
  fc.nat({ max: 5 }).map(String),
);
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
    fc.dictionary(key, tie('tree'), { minKeys: 1, maxKeys: 3 }),
  ),
}));
const topName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);

describe('rest-api3: PHP-semantics parameter parsing', () => {
  it('round-trips nested bracket syntax (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(topName, tree, { minKeys: 1, maxKeys: 4 }), (params) => {
        const out: string[] = [];
        for (const [k, v] of Object.entries(params)) encode(k, v, out);
        const parsed = topToJs(parseQueryString(out.join('&')));
        expect(parsed).to.deep.equal(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, expected(v)])));
      }),
      { numRuns: 300 },
    );
  });

  it('mangles . and space in top-level names only (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z. ]{0,8}$/), fc.stringMatching(/^[a-z. ]{1,6}$/), (name, inner) => {
        const parsed = topToJs(
          parseQueryString(`${encodeURIComponent(name)}=1&${encodeURIComponent(`${name}x[${inner}]`)}=2`),
        );
        const base = name.replace(/^ +/, '').replace(/[. ]/g, '_');
        expect(parsed[base]).to.equal('1');
        expect(parsed[`${base}x`]).to.deep.equal({ [inner]: '2' });
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (qs) => {
        const parsed = topToJs(parseQueryString(qs));
        expect(Object.getPrototypeOf(parsed)).to.equal(Object.prototype);
        buildParams(parsed);
        buildWpParams(parsed);
      }),
      { numRuns: 500 },
    );
  });

  it('follows PHP on the classic cases', () => {
    const parsed = topToJs(
      parseQueryString(
        'option.limit=5&api.Email.get=1&options[limit]=10&return[]=email&return[]=phone&id[IN][]=1&id[IN][]=2' +
          '&a[b=1&x[y]z=2&=3&flag&n=1&n=2&sp%20ace=1&+lead=1',
      ),
    );
    expect(parsed).to.deep.equal({
      option_limit: '5',
      api_Email_get: '1',
      options: { limit: '10' },
      return: ['email', 'phone'],
      id: { IN: ['1', '2'] },
      a_b: '1',
      x: { y: '2' },
      flag: '',
      n: '2',
      sp_ace: '1',
      lead: '1',
    });
  });

  it('keeps __proto__ a plain name', () => {
    const p = topToJs(parseQueryString('__proto__[polluted]=1&a[__proto__][b]=2'));
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    const params = buildParams(p)!;
    expect(Object.getPrototypeOf(params)).to.equal(Object.prototype);
    expect((params.a as Record<string, unknown>)['__proto__']).to.deep.equal({ b: '2' });
  });

  it('drops names nested deeper than PHP allows, and caps the number of variables', () => {
    expect(splitName('a' + '[x]'.repeat(63))).to.not.equal(undefined);
    expect(splitName('a' + '[x]'.repeat(64))).to.equal(undefined);
    const many = Array.from({ length: 1200 }, (_, i) => `v${i}=1`).join('&');
    expect(Object.keys(topToJs(parseQueryString(many)))).to.have.length(1000);
  });

  it('url-decodes like PHP: + is a space, a bad escape stays, bytes are UTF-8', () => {
    expect(urldecode('a+b%20c%zz%C3%A7%')).to.equal('a b c%zzç%');
  });

  it('url-decodes well-formed and malformed UTF-8 alike: an invalid byte is a replacement character', () => {
    expect(urldecode('%7B%22a%22%3A%221%2B2%22%7D')).to.equal('{"a":"1+2"}');
    expect(urldecode('é+%C3%A9')).to.equal('é é');
    expect(urldecode('a%FFb')).to.equal('a\uFFFDb');
    expect(urldecode('%ED%A0%80')).to.equal('\uFFFD\uFFFD\uFFFD'); // an encoded surrogate
    expect(urldecode('%C0%AF')).to.equal('\uFFFD\uFFFD'); // an overlong encoding
    expect(urldecode('100%')).to.equal('100%');
  });

  it('turns a list-shaped PHP array into a JS array only when keyed 0..n-1 in order', () => {
    expect(toJs(parseQueryString('a[1]=x&a[0]=y').get('a')!)).to.deep.equal({ 1: 'x', 0: 'y' });
    expect(toJs(parseQueryString('a[0]=x&a[1]=y').get('a')!)).to.deep.equal(['x', 'y']);
    expect(toJs(parseQueryString('a[5]=x&a[]=y').get('a')!)).to.deep.equal({ 5: 'x', 6: 'y' });
  });

  it('builds params: json object decoded, other params overlay, skip list, return.<key>', () => {
    expect(
      buildParams({ json: '{"a":1,"b":2}', b: '3', entity: 'x', action: 'y', key: 'k', api_key: 'z', q: 'q' }),
    ).to.deep.equal({ a: 1, b: '3' });
    expect(buildParams({ json: '[1,2]', a: '1' })).to.deep.equal({ a: '1' });
    expect(buildParams({ json: '1', a: '1' })).to.deep.equal({ a: '1' });
    expect(buildParams({ json: '{oops' })).to.equal(undefined);
    expect(buildParams({ return: { email: '1' } })).to.deep.equal({ return: { email: '1' }, 'return.email': 1 });
  });

  it('implements PHP is_numeric for the WordPress json rule', () => {
    for (const v of ['1', ' 1', '1.5', '.5', '-2', '1e3', 3]) expect(isNumeric(v), String(v)).to.equal(true);
    for (const v of ['', 'a', '1a', '{}', '0x1a', null]) expect(isNumeric(v), String(v)).to.equal(false);
  });
});
