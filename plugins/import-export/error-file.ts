/** The error file of an import: one CSV line per rejected row — its row number, file line, reason, then its cells. */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CsvRecord } from './csv-source';
import { csvLine } from '../api4';

export class ErrorFile {
  private constructor(private readonly out: WriteStream) {}

  /** Appends when resuming (the earlier run's rejections stay), else starts with a header line. */
  static async open(path: string, header: string[], append: boolean): Promise<ErrorFile> {
    const out = createWriteStream(path, { flags: append ? 'a' : 'w' });
    await once(out, 'open');
    const file = new ErrorFile(out);
    if (!append) await file.line(['row', 'line', 'reason', ...header]);
    return file;
  }

  write(record: CsvRecord, reason: string): Promise<void> {
    return this.line([String(record.row), String(record.line), reason, ...record.cells]);
  }

  private async line(cells: string[]): Promise<void> {
    if (!this.out.write(csvLine(cells))) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}
