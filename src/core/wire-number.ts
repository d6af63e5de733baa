/**
 * A JSON number kept as its text. The wire parser ({@link parseWireJson} in wire-json.ts) returns one wherever a
 * JS number would not hold the value the text says (`1.0000000000000001`, `1e400`, `9007199254740993`), so the
 * value is judged as written — as the same value sent as a string would be — instead of as its nearest double.
 */
export class WireNumber {
  /** The number exactly as the JSON text wrote it, e.g. `1000.0000000000000000001`. */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** The text, so messages and templates show what the client wrote. */
  toString(): string {
    return this.text;
  }

  /** Serialised back as a JSON string holding the text (JSON.stringify cannot emit a raw number text). */
  toJSON(): string {
    return this.text;
  }
}
