import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { KernelError } from '../kernel';

/**
 * The embedded database is single-process: a second process opening the same folder would corrupt
 * it. A lock file with the owner's pid refuses that with one clear line (a stale lock is taken over).
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8'));
      if (owner && isAlive(owner)) {
        throw new KernelError(
          'E_DATABASE',
          `The embedded database in ${dir} is in use by process ${owner}. ` +
            'Stop it, or use PostgreSQL (DATABASE_URL) to run several instances.',
          { details: { owner } },
        );
      }
      unlinkSync(file);
    }
  }
  throw new KernelError('E_DATABASE', `Cannot lock the embedded database in ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
