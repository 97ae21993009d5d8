import { expect } from 'chai';
import fc from 'fast-check';
import qs from 'qs';
import { flatForm, parseForm } from '../../host/http/form-body';

/** What koa-body's urlencoded parser answers: co-body asks qs for `allowDots`. */
const koaBody = (text: string) => qs.parse(text, { allowDots: true });

describe('host/form-body', () => {
  it('reads an APIv4 call body through the plain-pairs path, as qs would', () => {
    const body = `params=${encodeURIComponent(JSON.stringify({ select: ['id', 'email_primary.email'], limit: 25 }))}`;
    expect(flatForm(body)).to.deep.equal(koaBody(body));
    expect(flatForm(body)!.params).to.equal('{"select":["id","email_primary.email"],"limit":25}');
    const v3 = 'entity=Contact&action=get&json=1&api_key=a+b%2Bc&key=%E2%9C%93&sequential';
    expect(flatForm(v3)).to.deep.equal(koaBody(v3));
  });

  it('leaves to qs what qs treats specially: brackets, dots, repeats, prototype names, `]=`', () => {
    for (const body of [
      'options[limit]=5',
      'options%5Blimit%5D=5',
      'contact_id.1=3',
      'a=1&a=2',
      'constructor=x',
      '__proto__=x',
      'a]=b',
      'x=a]=b',
      '=v',
      'a=1&&b=2',
    ]) {
      expect(flatForm(body), body).to.equal(undefined);
      expect(parseForm(body), body).to.deep.equal(koaBody(body));
    }
    expect(parseForm('options[limit]=5&contact_id.1=3')).to.deep.equal({
      options: { limit: '5' },
      contact_id: ['3'], // qs's sparse array, compacted
    });
  });

  it('decodes as qs does: `+` as a space, a malformed escape kept as written, a bare key as ""', () => {
    for (const body of ['a=%E9&b=%zz+1', 'name=O%27Brien+Jr', 'flag', 'a=%5B1%5D', 'a=%255B']) {
      expect(parseForm(body), body).to.deep.equal(koaBody(body));
    }
  });

  it('gives the object qs gives, for any body (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      'id',
      '0',
      '=',
      '&',
      '+',
      '%',
      '%2',
      '%5B',
      '%5d',
      '[',
      ']',
      '.',
      'é',
      '%C3%A9',
      '%E9',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const body = pieces.join('');
        expect(parseForm(body)).to.deep.equal(koaBody(body));
      }),
      { numRuns: 3000 },
    );
  });

  it("leaves more than qs's 1000 parameters to qs (it keeps the first 1000)", () => {
    const body = Array.from({ length: 1001 }, (_, i) => `k${i}=${i}`).join('&');
    expect(flatForm(body)).to.equal(undefined);
    expect(Object.keys(parseForm(body))).to.have.length(1000);
  });
});
