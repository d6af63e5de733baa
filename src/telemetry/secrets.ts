/**
 * Secret scrubbing shared by every logger: a process-wide registry of secret values (API keys, secrets, the
 * signatures made from them) and a deep, key-based censor for log objects.
 *
 * Two mechanisms, because each misses what the other catches:
 * - by key: a field named `apiSecret`, `signature`, `Api-Key`, ... is censored wherever it sits, at any depth
 *   (pino's own `redact` paths only reach fixed depths);
 * - by value: a secret that ends up inside free text (an error message quoting a header, a URL, a stack trace)
 *   has no key to match, so every registered value is replaced wherever it appears in the final log line.
 */
import { stdSerializers } from 'pino';

/** What a censored value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Field names censored at any depth, compared case-insensitively and ignoring `-` and `_`
 * (so `Api-Key`, `api_key` and `apiKey` all match `apikey`). Exact names only: `nextPageToken` is not a secret.
 */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'apikey',
  'apisecret',
  'apisignature',
  // v1.1's signature header (seed 001 section 5).
  'apisign',
  'secret',
  'signature',
  'password',
  'passphrase',
  'token',
  'authorization',
  'credentials',
  'privatekey',
]);

/** Shorter values are not registered: scrubbing them would mangle ordinary text and they protect nothing. */
export const MIN_SECRET_LENGTH = 4;

/** Deeper structures are cut off rather than walked, since an unwalked branch could not be vouched for. */
const MAX_DEPTH = 32;

const registry = new Set<string>();
// Built lazily and dropped whenever the registry changes.
let rawPattern: RegExp | undefined;
let jsonPattern: RegExp | undefined;

/** Whether a field name holds a secret (see {@link SECRET_KEYS}). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/**
 * Register a secret value (API key, API secret, ...) so every logger scrubs it from all output, even from free
 * text. Returns false (and registers nothing) for values shorter than {@link MIN_SECRET_LENGTH}.
 *
 * @example
 * registerSecret(config.apiKey);
 * registerSecret(config.apiSecret);
 * log.error(new Error(`rejected key ${config.apiKey}`)); // the line reads "rejected key [redacted]"
 */
export function registerSecret(value: string): boolean {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
  if (!registry.has(value)) {
    registry.add(value);
    rawPattern = undefined;
    jsonPattern = undefined;
  }
  return true;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regexp matching any registered secret, longest first so a secret containing another goes whole. */
function buildPattern(forms: Iterable<string>, prefix: string): RegExp {
  const alternatives = [...new Set(forms)].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`${prefix}(?:${alternatives.join('|')})`, 'g');
}

/**
 * Replace every registered secret value occurring in `value` with {@link REDACTED}. Non-strings are returned as
 * they are.
 *
 * @example
 * registerSecret('0123456789abcdef');
 * redactSecrets('GET /v3/balances key=0123456789abcdef'); // 'GET /v3/balances key=[redacted]'
 */
export function redactSecrets<T>(value: T): T {
  if (typeof value !== 'string' || registry.size === 0) return value;
  rawPattern ??= buildPattern(registry, '');
  return value.replace(rawPattern, REDACTED) as T;
}

/**
 * {@link redactSecrets} for a serialized JSON text (a finished log line): secrets are matched in their JSON-escaped
 * form and only where a character starts (never right after an escaping backslash), so the line stays valid JSON.
 */
export function redactSecretsInJson(json: string): string {
  if (registry.size === 0) return json;
  jsonPattern ??= buildPattern(
    [...registry].map((secret) => JSON.stringify(secret).slice(1, -1)),
    // Preceded by an even number of backslashes: the match begins a character, not the tail of an escape.
    String.raw`(?<=(?:^|[^\\])(?:\\\\)*)`,
  );
  return json.replace(jsonPattern, REDACTED);
}

function isPlainOrArray(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Copy of `value` with every secret-named field censored at any depth, Errors turned into pino's serialized form
 * (so their message, stack and own fields are covered too) and cycles cut. Returns `value` itself when nothing
 * needed changing, so logging ordinary objects costs no copies.
 */
export function censorSecretKeys(value: unknown): unknown {
  return walk(value, new Set(), 0);
}

function walk(value: unknown, ancestors: Set<object>, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  // A back-reference to an ancestor would serialize the uncensored original, so it is cut here.
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';

  let source: object = value;
  let changed = false;
  if (value instanceof Error) {
    source = { ...stdSerializers.err(value) };
    changed = true;
  } else if (!isPlainOrArray(value) && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // Dates, Buffers, Decimals: they serialize themselves through toJSON and hold no named secrets.
    return value;
  } else if (!isPlainOrArray(value)) {
    // Class instances serialize as their enumerable fields; treat them as plain objects.
    changed = true;
  }

  ancestors.add(value);
  try {
    if (Array.isArray(source)) {
      const out = source.map((item) => walk(item, ancestors, depth + 1));
      return changed || out.some((item, i) => item !== (source as unknown[])[i]) ? out : value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(source)) {
      const next = isSecretKey(key) && child !== undefined && child !== null ? REDACTED : walk(child, ancestors, depth + 1);
      if (next !== child) changed = true;
      out[key] = next;
    }
    return changed ? out : value;
  } finally {
    ancestors.delete(value);
  }
}
