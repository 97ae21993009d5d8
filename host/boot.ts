/** Boots the kernel: the host opens the database and the logger, then hands them over. */
import { Kernel } from '../kernel';
import type { Config } from './config';
import { createDb, storageOf, type Db } from './db';
import { createLogger } from './log';
import { instrumentKernel } from './metrics';
import { createSecretBox } from './secrets';
import { asFunction } from 'awilix';
import type { Logger } from '../kernel';
import type { CliContext } from './types';

export interface CreateKernelOptions {
  config: Config;
  log?: Logger;
  db?: Db;
  /** Apply pending migrations at start (default true). */
  migrate?: boolean;
  /** Extra plugin folders (tests load fixtures this way). */
  pluginDirs?: string[];
}

/** A kernel wired to this host's engines, registered but not started (`crm migrate`, docs). */
export function hostedKernel(config: Config, log?: Logger, db?: Db): Kernel {
  const logger =
    log ??
    createLogger({ level: config.log.level, pretty: config.log.pretty, maxValueLength: config.limits.logValueBytes });
  const kernel = new Kernel(config, logger, storageOf(db ?? createDb(config, logger), config, logger));
  // Secrets at rest: plugins (entity-core's store) encrypt the fields their metadata marks `encrypted`.
  kernel.container.register({ secretBox: asFunction(() => createSecretBox(config, logger)).singleton() });
  instrumentKernel(kernel);
  return kernel;
}

/** Builds, boots and returns a kernel; on a boot failure the database handle is closed again. */
export async function createKernel(opts: CreateKernelOptions): Promise<Kernel> {
  const kernel = hostedKernel(opts.config, opts.log, opts.db);
  try {
    return await kernel.boot({ migrate: opts.migrate, pluginDirs: opts.pluginDirs });
  } catch (err) {
    await kernel.close().catch(() => undefined);
    throw err;
  }
}

/** What CLI commands get: the narrow API, the database and the registered services. */
export function cliContext(kernel: Kernel): CliContext {
  return { api: kernel.api, db: kernel.db, services: kernel.container.cradle };
}
