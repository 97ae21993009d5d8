import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { inlined, pgbenchRate, tpsOf } from '../../bench/pgbench';

/** The bench's PostgreSQL-alone figure (issue 18): the page's statement as pgbench runs it, and its rate read back. */
describe('bench/pgbench: PostgreSQL alone on a page statement', () => {
  it('writes bound values into the statement: $10 is not $1 followed by 0, text is quoted', () => {
    const params = [true, 2, 3, 4, 5, 6, 7, 8, 9, "O'Brien"];
    expect(inlined('select $1, $10, $2 where x = $10', params)).to.equal(
      "select true, 'O''Brien', 2 where x = 'O''Brien'",
    );
    expect(() => inlined('select $1', [{ a: 1 }])).to.throw(/cannot write/);
  });

  it("reads the rate from pgbench's report", () => {
    expect(tpsOf('latency average = 3.2 ms\ntps = 4580.505045 (without initial connection time)\n')).to.equal(
      4580.505045,
    );
    expect(tpsOf('pgbench: error: connection failed')).to.equal(undefined);
  });

  it('measures a statement on PostgreSQL, and names the failure of one that cannot run', async function () {
    const url = process.env.DATABASE_URL;
    let installed = true;
    try {
      execFileSync('pgbench', ['--version']);
    } catch {
      installed = false;
    }
    if (!url || !installed) this.skip(); // PostgreSQL with pgbench only
    this.timeout(60_000);
    const rate = await pgbenchRate({ url: url!, sql: 'select $1::int + $2', params: [1, 2], clients: 2, seconds: 1 });
    expect(rate).to.be.greaterThan(0);
    let failed: Error | undefined;
    try {
      await pgbenchRate({ url: url!, sql: 'select * from no_such_table_here', params: [], clients: 1, seconds: 1 });
    } catch (err) {
      failed = err as Error;
    }
    expect(failed?.message).to.match(/^pgbench failed: .*no_such_table_here/);
  });
});
