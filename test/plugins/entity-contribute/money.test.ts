/** Money arithmetic: line items sum to the total exactly, with no float drift (property tests), in JS and in SQL. */
import { expect } from 'chai';
import fc from 'fast-check';
import { fromCents, sum, times, toCents } from '../../../plugins/entity-contribute';
import { bootCrm, type Crm, type Headers, type Row } from './http';

const cents = fc.bigInt({ min: 0n, max: 10_000_000n });
const amount = cents.map(fromCents);

describe('entity-contribute: exact money', function () {
  this.timeout(120000);

  it('decimal strings round-trip through hundredths', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -10_000_000_000n, max: 10_000_000_000n }),
        (value) => toCents(fromCents(value)) === value,
      ),
    );
    expect(times('3', '0.10')).to.equal('0.30');
    expect(sum(['0.10', '0.20'])).to.equal('0.30');
    expect(() => toCents('1e3')).to.throw(/not a valid amount/);
  });

  it('sums of many line items have no float drift', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 50 }), (values) => {
        const expected = values.reduce((acc, value) => acc + toCents(value), 0n);
        return sum(values) === fromCents(expected) && toCents(sum(values)) === expected;
      }),
    );
  });

  describe('over HTTP', () => {
    let crm: Crm;
    let admin: Headers;
    let ann: number;
    before(async () => {
      crm = await bootCrm();
      admin = (await crm.userWith('root', ['*'])).headers;
      const made = await crm.api4(admin, 'Contact', 'create', {
        values: { contact_type: 'Individual', first_name: 'Ann' },
      });
      ann = Number(made.values[0].id);
    });
    after(() => crm?.t.close());

    it('line items sum to the contribution total in the database, to the cent', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ qty: fc.integer({ min: 1, max: 5 }), price: amount }), { minLength: 1, maxLength: 6 }),
          async (lines) => {
            const total = sum(lines.map((line) => times(line.qty, line.price)));
            const made = await crm.api3(admin, 'Contribution', 'create', {
              contact_id: ann,
              financial_type_id: 1,
              total_amount: total,
              line_items: lines.map((line) => ({ qty: line.qty, unit_price: line.price })),
            });
            expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
            expect(made.values[String(made.id)].total_amount).to.equal(total);
            const items = await crm.api3(admin, 'LineItem', 'get', { contribution_id: made.id, options: { limit: 0 } });
            const stored = Object.values(items.values as Record<string, Row>).map((item) => String(item.line_total));
            expect(sum(stored)).to.equal(total);
          },
        ),
        { numRuns: 15 },
      );
    });
  });
});
