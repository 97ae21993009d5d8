/**
 * A value of a linked create ({@link Entities.createLinked}) standing for the id of an earlier record of the
 * same call, which does not exist yet when the values are written down.
 */
export class Link {
  constructor(readonly step: number) {}
}

/** The id of record `step` (0-based) of the same linked create. */
export const linkTo = (step: number): Link => new Link(step);
