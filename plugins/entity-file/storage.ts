/**
 * Where file content lives: the `FileStorage` interface (an object-store plugin answers the
 * `files.storage` hook with its own) and the default, a folder under the data directory. Content is
 * streamed in and out, counted on the way in and refused past the size limit; keys are checked names,
 * never paths.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { KernelError } from '../../kernel';

export interface FileStorage {
  /** Stores the content under `key`; refuses (and keeps nothing) past `maxBytes`. Returns the size. */
  write(key: string, content: Readable, maxBytes: number): Promise<number>;
  /** The content, streamed. */
  read(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

export function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new KernelError('E_INVALID_PARAMS', 'Malformed file key');
  return key;
}

export class TooLarge extends Error {}

/** Counts the bytes going through; fails past the limit. */
function limit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new TooLarge(`The file is larger than ${maxBytes} bytes`));
      done(null, chunk);
    },
  });
}

export class LocalFileStorage implements FileStorage {
  constructor(private readonly directory: string) {}

  private pathOf(key: string): string {
    return path.join(this.directory, checkKey(key));
  }

  async write(key: string, content: Readable, maxBytes: number): Promise<number> {
    const target = this.pathOf(key);
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const partial = `${target}.partial`;
    try {
      await pipeline(content, limit(maxBytes), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      if (err instanceof TooLarge) throw new KernelError('E_INVALID_PARAMS', err.message);
      throw err;
    }
    return (await stat(target)).size;
  }

  async read(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file);
    return createReadStream(file);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
