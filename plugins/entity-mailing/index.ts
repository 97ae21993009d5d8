/** entity-mailing's public surface: sending what is due (for the scheduled-job runner) and the recipient list. */
export { processMailings, type ProcessResult, type SendingDeps } from './sending';
export { resolveRecipients, type Recipient } from './recipients';
