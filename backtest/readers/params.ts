/**
 * Reading a reader's format-specific `params` (from the backtest config) with errors that name the format and the
 * param, so a config mistake is reported when the reader is opened, not as a confusing bad line later.
 */

/** Params of one reader, checked as they are read. */
export class ReaderParams {
  readonly #format: string;
  readonly #params: Readonly<Record<string, unknown>>;

  constructor(format: string, params: Readonly<Record<string, unknown>> | undefined, known: readonly string[]) {
    this.#format = format;
    this.#params = params ?? {};
    const unknown = Object.keys(this.#params).filter((k) => !known.includes(k));
    if (unknown.length > 0) this.fail(unknown[0]!, `is not a param of this format (known: ${known.join(', ') || 'none'})`);
  }

  /** Throw a RangeError about param `name`. */
  fail(name: string, problem: string): never {
    throw new RangeError(`${this.#format} reader: param "${name}" ${problem}`);
  }

  string(name: string): string | undefined {
    const v = this.#params[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length === 0) this.fail(name, 'must be a non-empty string');
    return v;
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const v = this.#params[name];
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) this.fail(name, `must be one of ${values.join(', ')}`);
    return v as T;
  }

  positiveInt(name: string, fallback: number): number {
    const v = this.#params[name];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) this.fail(name, 'must be a positive integer');
    return v;
  }

  boolean(name: string, fallback: boolean): boolean {
    const v = this.#params[name];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(name, 'must be true or false');
    return v;
  }

  stringList(name: string): string[] | undefined {
    const v = this.#params[name];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'string' && s.length > 0)) this.fail(name, 'must be a list of strings');
    return v as string[];
  }

  stringMap(name: string): Record<string, string> | undefined {
    const v = this.#params[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.values(v).every((s) => typeof s === 'string')) {
      this.fail(name, 'must be a map of strings');
    }
    return v as Record<string, string>;
  }

  /** A raw value, for params with a shape of their own (checked by the caller). */
  raw(name: string): unknown {
    return this.#params[name];
  }
}
