/** jobs' public surface: the runner (for plugins that drive it) and how a job's frequency and parameters read. */
export { JOB_PRINCIPAL, JobRunner, parseParameters, periodOf, type RunOutcome } from './runner';
export { RUN_FREQUENCIES } from './entities/Job';
export { signature } from './webhook';
