/** The logger: secrets redacted by key name at any case and a few levels deep; long values cut. */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../host';

function capture(maxValueLength = 4096) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: createLogger({ destination, maxValueLength }), lines };
}

describe('host: logger', () => {
  it('redacts secret keys wherever they sit in the first levels, in any case, and in logged errors', async () => {
    const { log, lines } = capture();
    const err = Object.assign(new Error('refused'), { config: { headers: { Authorization: 'Bearer sekrit-4' } } });
    log.info(
      {
        api_key: 'sekrit-1',
        request: { headers: { AUTHORIZATION: 'Bearer sekrit-2', accept: 'json' } },
        tokens: [{ access_token: 'sekrit-3', scope: 'mail' }],
        deep: { a: { b: { c: { password: 'sekrit-5' } } } },
        err,
      },
      'a line',
    );
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(lines);
    expect(text).to.not.match(/sekrit/);
    const [line] = lines as Array<Record<string, any>>;
    expect(line.api_key).to.equal('[redacted]');
    expect(line.request.headers).to.deep.equal({ AUTHORIZATION: '[redacted]', accept: 'json' });
    expect(line.tokens).to.deep.equal([{ access_token: '[redacted]', scope: 'mail' }]);
    expect(line.err.message).to.equal('refused');
  });

  it('cuts long strings and long lists', async () => {
    const { log, lines } = capture(10);
    log.info({ sql: 'x'.repeat(50), list: Array.from({ length: 60 }, (_, i) => i) }, 'y'.repeat(20));
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = lines as Array<Record<string, any>>;
    expect(line.sql).to.equal(`${'x'.repeat(10)}… [cut: 50 characters]`);
    expect(line.list).to.have.length(51);
    expect(line.msg).to.equal(`${'y'.repeat(10)}… [cut: 20 characters]`);
  });
});
