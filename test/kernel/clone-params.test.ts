import { expect } from 'chai';
import fc from 'fast-check';
import { cloneParams } from '../../kernel/pipeline';

// The pipeline copies params before the validator coerces them in place: the copy must be what
// structuredClone made before (the caller's object untouched, the same refusals), only cheaper.
describe('pipeline params copy', () => {
  it('equals structuredClone on any JSON value, and shares no object with the original', () => {
    fc.assert(
      // (Values with a `__proto__` key are refused, below.)
      fc.property(
        fc.jsonValue().filter((value) => !JSON.stringify(value).includes('"__proto__"')),
        (value) => {
          const copy = cloneParams(value, 0);
          expect(copy).to.deep.equal(structuredClone(value));
          const walk = (a: unknown, b: unknown) => {
            if (typeof a !== 'object' || a === null) return;
            expect(a).not.to.equal(b);
            for (const key of Object.keys(a)) walk((a as never)[key], (b as never)[key]);
          };
          walk(value, copy);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses an own __proto__ key at any depth (JSON.parse makes one; assigned later, it would be lost)', () => {
    for (const text of ['{"__proto__": {"polluted": 1}}', '{"values": [{"a": 1, "__proto__": 2}]}']) {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(() => cloneParams(parsed, 0)).to.throw("Invalid key '__proto__' in params");
    }
  });

  it('copies what is not plain data (a Date, a Buffer, a Map) as structuredClone does', () => {
    const when = new Date('2026-11-28T10:00:00Z');
    const copy = cloneParams({ when, list: [new Map([['k', 1]])], bytes: new Uint8Array([1, 2]) }, 0);
    expect(copy.when).to.be.instanceOf(Date).and.not.equal(when);
    expect(copy.when.getTime()).to.equal(when.getTime());
    expect(copy.list[0]).to.be.instanceOf(Map);
    expect([...copy.bytes]).to.deep.equal([1, 2]);
  });

  it('refuses a function as structuredClone does', () => {
    expect(() => cloneParams({ callback: () => 1 }, 0)).to.throw(/could not be cloned/);
  });

  it('copies a cycle (past 64 levels it is structuredClone that walks it)', () => {
    const looped: Record<string, unknown> = { name: 'x' };
    looped.self = looped;
    const copy = cloneParams(looped, 0);
    let node = copy;
    for (let i = 0; i < 100; i++) node = node.self as Record<string, unknown>;
    expect(node.name).to.equal('x');
  });
});
