/**
 * A CSV file as a stream of records: bytes decoded (UTF-8 checked strictly, or the `--encoding` given),
 * parsed by csv-parse with a record size limit; ragged rows come through (the importer rejects them one by
 * one). A file-level fault (encoding, a record over the limit, broken quoting) is a KernelError naming it.
 */
import { createReadStream } from 'node:fs';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import type { CsvError } from 'csv-parse';
import { KernelError } from '../../kernel';

export interface CsvOptions {
  /** A WHATWG label (`utf-8`, `latin1`, `windows-1252`, `utf-16le`…); default strict UTF-8. */
  encoding?: string;
  maxRecordBytes: number;
  delimiter?: string;
}

export interface CsvRecord {
  /** 1-based number of the data row (the header is row 0). */
  row: number;
  /** Line of the file where the record ends (what an editor shows). */
  line: number;
  cells: string[];
}

/** Bytes → text; strict UTF-8 refuses an invalid byte with its offset. */
function decoder(label: string | undefined, source: string): Transform {
  let text: TextDecoder;
  try {
    text = new TextDecoder(label ?? 'utf-8', { fatal: !label || /^utf-?8$/i.test(label) });
  } catch {
    throw new KernelError('E_INVALID_PARAMS', `Unknown encoding: ${label}`);
  }
  let offset = 0;
  const fail = (cb: TransformCallback) =>
    cb(
      new KernelError(
        'E_INVALID_PARAMS',
        `${source} is not valid ${label ?? 'UTF-8'} (a bad byte sequence near byte ${offset}); ` +
          'convert it to UTF-8 or name its encoding (--encoding latin1, windows-1252, utf-16le…)',
      ),
    );
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, cb) {
      try {
        const out = text.decode(chunk, { stream: true });
        offset += chunk.length;
        cb(null, out);
      } catch {
        fail(cb);
      }
    },
    flush(cb) {
      try {
        cb(null, text.decode());
      } catch {
        fail(cb);
      }
    },
  });
}

function csvFault(err: unknown, source: string, maxRecordBytes: number, csv: typeof CsvError): Error {
  if (err instanceof KernelError) return err;
  if (err instanceof csv) {
    const where = `${source} line ${String((err as { lines?: number }).lines ?? '?')}`;
    if (err.code === 'CSV_MAX_RECORD_SIZE')
      return new KernelError('E_INVALID_PARAMS', `${where}: a record is longer than ${maxRecordBytes} bytes`);
    return new KernelError('E_INVALID_PARAMS', `${where}: not valid CSV (${err.message})`);
  }
  return new KernelError('E_INVALID_PARAMS', `${source}: ${(err as Error).message}`);
}

/** The header, then each record; `input` is a file path or the text itself (`Import.run` over HTTP). */
export async function* csvRecords(
  input: { path: string } | { text: string },
  options: CsvOptions,
): AsyncGenerator<{ header: string[] } | CsvRecord> {
  const source = 'path' in input ? input.path : 'the CSV text';
  const bytes = 'path' in input ? createReadStream(input.path) : Readable.from([Buffer.from(input.text, 'utf8')]);
  // Loaded by the first import, not at every start (csv-parse is ~10 modules).
  const { Parser, CsvError: csvError } = await import('csv-parse');
  // Each record with the line it ends on, read from the parser's counters as it hands the record on (it does so
  // synchronously): the same number csv-parse's `info` option gives, without the three objects that option
  // copies for every record (~4% of an import's time, and its garbage).
  class LineParser extends Parser {
    override push(record: unknown, encoding?: BufferEncoding): boolean {
      return super.push(record === null ? null : { record, line: this.info.lines }, encoding);
    }
  }
  const parser = new LineParser({
    relax_column_count: true,
    max_record_size: options.maxRecordBytes,
    delimiter: options.delimiter ?? ',',
    skip_empty_lines: true,
  });
  const decode = decoder('path' in input ? options.encoding : undefined, source);
  bytes.on('error', (err: Error) => parser.destroy(err));
  decode.on('error', (err) => parser.destroy(err));
  bytes.pipe(decode).pipe(parser);
  let row = -1;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; line: number }>) {
      row += 1;
      if (row === 0) yield { header: item.record.map((cell) => cell.trim()) };
      else yield { row, line: item.line, cells: item.record };
    }
  } catch (err) {
    throw csvFault(err, source, options.maxRecordBytes, csvError);
  } finally {
    bytes.destroy();
  }
  if (row < 0) throw new KernelError('E_INVALID_PARAMS', `${source} is empty (no header row)`);
}
