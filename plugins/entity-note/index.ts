/** entity-note's public surface: what a note may be attached to. */
export { NOTE_USED_FOR } from './entities/Note';
