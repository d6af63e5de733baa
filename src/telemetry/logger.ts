/**
 * The pino logger every rexbot component logs through, with secrets scrubbed three ways:
 *
 * 1. pino `redact` paths ({@link REDACT_PATHS}) — the documented, fast path for the usual places;
 * 2. `formatters.log` / `formatters.bindings` censor secret-named fields at any depth and serialize Errors
 *    (see {@link censorSecretKeys}), because redact paths only reach fixed depths;
 * 3. `hooks.streamWrite` replaces registered secret values ({@link registerSecret}) anywhere in the finished line.
 *    It is the only hook that sees the message, child bindings and serialized error stacks all together, so a key
 *    pasted into an exception message is scrubbed no matter how it got there.
 */
import { pino } from 'pino';
import type { DestinationStream, Logger, LoggerOptions } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { noteAsyncDestination } from './log-writes.js';
import { censorSecretKeys, redactSecretsInJson, REDACTED } from './secrets.js';
import type { Clock } from '../core/clock.js';

export type { Logger } from 'pino';
export { isSecretKey, redactSecrets, registerSecret, REDACTED, SECRET_KEYS } from './secrets.js';

/** Environment variable giving the log level when none is passed. */
export const LOG_LEVEL_ENV = 'REXBOT_LOG_LEVEL';

const SECRET_FIELDS = [
  'apiSecret',
  'secret',
  'apiKey',
  'signature',
  'password',
  'token',
  '["Api-Key"]',
  '["Api-Signature"]',
  '["api-key"]',
  '["api-signature"]',
  'authorization',
];
// Where request/response data usually sits when logged: the fields may be top level or one or two levels down.
const SECRET_PREFIXES = ['', 'req.', 'request.', 'headers.', 'req.headers.', 'request.headers.', '*.', '*.headers.'];

/**
 * The pino redact paths: every secret field at the top level, under `req`/`request`/`headers`, one level down
 * (`*.apiSecret`) and in `credentials.*`. Deeper occurrences are caught by key-based censoring.
 */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_PREFIXES.flatMap((prefix) =>
    SECRET_FIELDS.map((field) => (field.startsWith('[') ? `${prefix.replace(/\.$/, '')}${field}` : `${prefix}${field}`)),
  ),
  'credentials.*',
  '*.credentials.*',
];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** pino level (`trace` … `fatal`, `silent`). Default: `$REXBOT_LOG_LEVEL`, else `info`. */
  level?: string;
  /** Logger name, written as the `name` field of every line. */
  name?: string;
  /** Where lines go. Default: stdout. */
  destination?: DestinationStream;
  /**
   * The clock whose time stamps each line's `time` (epoch ms). Default: the wall clock. A backtest passes its
   * VirtualClock so that log lines carry simulated time and two runs log the same lines.
   */
  clock?: Pick<Clock, 'now'>;
  /**
   * `json` (default): one JSON object per line, for machines. `pretty`: one readable line per entry (time, level,
   * message, then the fields), coloured when the destination is a terminal. Secrets are scrubbed before either.
   */
  format?: LogFormat;
}

/** How log lines are written. */
export type LogFormat = 'json' | 'pretty';

/**
 * The format to use: an explicit `--pretty` / `--json` flag wins, then a configured `json` / `pretty`; `auto`
 * means pretty on a terminal and JSON when the output goes to a file or another program.
 */
export function resolveLogFormat(configured: 'auto' | LogFormat, flag: LogFormat | undefined, isTTY: boolean | undefined): LogFormat {
  if (flag) return flag;
  if (configured !== 'auto') return configured;
  return isTTY ? 'pretty' : 'json';
}

/** A pino destination that prints readable lines to `out` (stdout by default), coloured when `out` is a terminal. */
export function prettyDestination(out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): DestinationStream {
  return PinoPretty({
    destination: out,
    colorize: out.isTTY === true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
}

/**
 * Create a JSON logger with secret redaction. Child loggers (`logger.child({...})`) inherit all of it.
 *
 * @example
 * registerSecret(apiSecret);
 * const log = createLogger({ name: 'rest' });
 * log.info({ headers: { 'Api-Key': key, 'Api-Signature': sig }, path: '/v3/orders' }, 'request');
 * // {"level":30,...,"name":"rest","headers":{"Api-Key":"[redacted]","Api-Signature":"[redacted]"},"path":"/v3/orders","msg":"request"}
 */
export function createLogger(opts: CreateLoggerOptions = {}): Logger {
  const level = opts.level ?? (process.env[LOG_LEVEL_ENV] || 'info');
  const options: LoggerOptions = {
    level,
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    // Errors are already serialized (and scrubbed) by formatters.log; this only covers an Error that reaches
    // the serializer some other way, without re-serializing the scrubbed copy (which would lose its type).
    serializers: {
      err: (value: unknown) => (value instanceof Error ? censorSecretKeys(value) : value),
    },
    formatters: {
      log: (object) => censorSecretKeys(object) as Record<string, unknown>,
      bindings: (bindings) => censorSecretKeys(bindings) as Record<string, unknown>,
    },
    hooks: {
      streamWrite: (line) => redactSecretsInJson(line),
    },
  };
  if (opts.name !== undefined) options.name = opts.name;
  const clock = opts.clock;
  if (clock) options.timestamp = () => `,"time":${clock.now()}`;
  const destination = opts.format === 'pretty' ? prettyDestination((opts.destination as NodeJS.WritableStream | undefined) ?? process.stdout) : opts.destination;
  if (destination) return pino(options, destination);
  const logger = pino(options);
  // pino's own destination writes to stdout asynchronously: a process about to end waits for it (log-writes.ts).
  noteAsyncDestination((logger as unknown as Record<symbol, object>)[pino.symbols.streamSym]!);
  return logger;
}
