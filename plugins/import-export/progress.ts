/** Progress of an import on stderr: a bar redrawn in place on a terminal, a plain line every few seconds otherwise. */
import type { WriteStream } from 'node:tty';

export function progressReporter(stream: NodeJS.WriteStream | WriteStream, quiet = false) {
  const started = Date.now();
  let lastLine = 0;
  let drawn = false;
  const rate = (done: number) => Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
  return {
    update(done: number, total: number) {
      if (quiet) return;
      const share = total ? Math.min(1, done / total) : 1;
      if (stream.isTTY) {
        const width = 30;
        const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
        stream.write(`\r[${bar}] ${Math.round(share * 100)}% ${done}/${total} rows, ${rate(done)}/s `);
        drawn = true;
      } else if (Date.now() - lastLine >= 5000 || done >= total) {
        lastLine = Date.now();
        stream.write(`import: ${done}/${total} rows (${Math.round(share * 100)}%), ${rate(done)} rows/s\n`);
      }
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}
