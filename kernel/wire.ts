/**
 * Pre-rendered JSON. A binding that writes an action's result straight out as JSON says so on the call
 * (`wire: 'json'`); the action may then answer its result as JSON text it had the database build, so the
 * rows are never turned into objects only to be serialised again (docs/adr/0017-rows-rendered-in-postgresql.md).
 * Anything that is not the binding and needs the structure calls `value()`; `JSON.stringify` of a
 * `WireJson` gives the same text, through `toJSON`.
 */
export class WireJson {
  private parsed?: unknown;

  constructor(readonly text: string) {}

  /** The structure the text encodes (parsed once, on first use). */
  value(): unknown {
    if (this.parsed === undefined) this.parsed = JSON.parse(this.text);
    return this.parsed;
  }

  toJSON(): unknown {
    return this.value();
  }
}

export function isWireJson(value: unknown): value is WireJson {
  return value instanceof WireJson;
}
