/**
 * The bot's YAML configuration (`config/paper.yaml`, `config/live.yaml`): which venue, which strategies on which
 * markets with which params, risk limits, journal, ops endpoint and shutdown policy. Secrets come from the
 * environment (`${REXBOT_API_SECRET}`) or a file (`credentials.file`), never from the committed YAML.
 *
 * The schema is published as JSON Schema (`rexbot schema > config/bot.schema.json`) so editors complete and check
 * the YAML; see {@link botConfigJsonSchema}.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { budgetRule } from '../bittrex/rest/budget-rule.js';
import { ValidationError } from '../core/errors.js';
import { riskConfigSchema } from '../risk/risk-config.js';
import { ConfigError, loadYamlConfig } from './config/yaml-config.js';
import { backtestVenueSchema } from './config/backtest-venue.js';
import { marketSymbolSchema, portSchema } from './config/schema-helpers.js';

const strategySchema = z.strictObject({
  /** Instance name (unique in the bot); appears in logs, metrics and order events. */
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only'),
  /** A plugin name from strategies/ (`market-maker`) or a path to a .ts/.js file (relative to the config file). */
  use: z.string().min(1),
  markets: z.array(marketSymbolSchema).min(1),
  /** Validated by the plugin's own schema when it loads. */
  params: z.record(z.string(), z.unknown()).default({}),
  enabled: z.boolean().default(true),
});

/**
 * Rate decimals per market for a v1.1 venue: 0 to 8, the most the v1.1 wire carries (every rate and amount had at
 * most 8 decimals).
 */
const v1PrecisionSchema = z.record(marketSymbolSchema, z.number().int('a whole number of decimals').min(0).max(8, 'at most 8: v1.1 rates carry 8 decimals'), {
  error: (iss) => (iss.code === 'invalid_key' ? `${JSON.stringify(iss.input)} is not a market symbol like BTC-USD` : undefined),
});

const venueSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    /** Start rexbot's simulator in this process and trade against it over real HTTP and hub connections. */
    kind: z.literal('paper'),
    /** Simulator config file (relative to this file); default: the built-in defaults. */
    simulator: z.string().optional(),
    /** Interface version the bot speaks: `v3` (default) or the legacy `v1` (v1.1 REST + hub c2, limit orders only). */
    dialect: z.enum(['v3', 'v1']).default('v3'),
    /** `dialect: v1` only: rate decimals per market; default the simulator's own (its v3 /markets). */
    precision: v1PrecisionSchema.optional(),
  }),
  z.strictObject({
    /** Connect to a running venue: the real interface or a `rexbot sim` elsewhere. */
    kind: z.literal('live'),
    /** REST base with its version path: `.../v3`, or `.../api/v1.1` with `dialect: v1`. */
    restUrl: z.url(),
    hubUrl: z.url(),
    dialect: z.enum(['v3', 'v1']).default('v3'),
    /**
     * `dialect: v1` only: rate decimals per market (`{ BTC-USD: 3 }`). v1.1 publishes no precision and the venue
     * refuses a finer rate (RATE_PRECISION_NOT_ALLOWED), so each strategy market needs it here or from v3RestUrl.
     */
    precision: v1PrecisionSchema.optional(),
    /** `dialect: v1` only: the same engine's v3 REST base (`https://api.bittrex.com/v3`), whose /markets gives each market's precision. */
    v3RestUrl: z.url().optional(),
  }),
  backtestVenueSchema,
]);

const rateLimitSchema = z.strictObject({
  /**
   * Share the API key's call budget with every other bot process using the key, through this Redis
   * (`redis://host:port`; put a password in the environment: `${REDIS_URL}`). Unset: this process alone.
   */
  shared: z.string().regex(/^rediss?:\/\/[^\s]+$/, 'a redis:// or rediss:// URL').optional(),
  /** How many bot processes may use the key at once; each declared one that is not running holds back its fallback share. */
  maxProcesses: z.number().int().positive().default(2),
  /** Calls a minute this process may make alone while Redis is unreachable; default callsPerMinute / maxProcesses (rounded down). */
  fallbackShare: z.number().int().positive().optional(),
  /** Calls a minute only cancels may use (of the shared budget); default a tenth of callsPerMinute (rounded up). */
  cancelReserve: z.number().int().min(0).optional(),
  /** No call starts within this many ms either side of a minute boundary (latency and clock skew to the server). */
  boundaryGuardMs: z.number().int().min(0).max(14_999).default(250),
});

/** Schema of a bot config file. */
export const botConfigSchema = z.strictObject({
  bot: z
    .strictObject({
      /**
       * The bot's name: its journal's file name, log name and metric label. Letters, digits, `.`, `_`, `-` and
       * spaces, not starting with `.`: `../x` or `a/b` put the journal outside journal.dir, and a NUL failed at
       * its open with a stack trace.
       */
      name: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[A-Za-z0-9_-][A-Za-z0-9._ -]*$/, 'must be letters, digits, ".", "_", "-" or spaces, not starting with "." (it names the journal file)')
        .default('rexbot'),
    })
    .prefault({}),
  venue: venueSchema.default({ kind: 'paper', dialect: 'v3' }),
  /** Hub transport: classic ASP.NET SignalR (what the service spoke) or @microsoft/signalr against a Core hub. */
  transport: z.enum(['classic', 'core']).default('classic'),
  credentials: z
    .strictObject({
      apiKey: z.string().min(1).optional(),
      apiSecret: z.string().min(1).optional(),
      /** A file holding `{"apiKey": "...", "apiSecret": "..."}` (relative to this config file). */
      file: z.string().optional(),
    })
    .optional(),
  /** Order book depth kept in sync per market. */
  depth: z.union([z.literal(1), z.literal(25), z.literal(500)]).default(25),
  strategies: z.array(strategySchema).min(1),
  risk: riskConfigSchema.prefault({}),
  journal: z
    .strictObject({
      dir: z.string().default('.rexbot/journal'),
      /**
       * Compact the journal (rewrite it with only the orders still in flight, their fills and a positions
       * checkpoint) at start and whenever the file reaches this many bytes; 0 never compacts. Default 16 MiB (a compaction blocks the event loop for roughly 3 ms per MiB of journal; see `npm run bench -- --only journal-compact`).
       */
      compactBytes: z.number().int().min(0).default(16 * 1024 * 1024),
      /** Append each journal a compaction replaces to `<journal>.history` (an audit trail, never read back). */
      keepHistory: z.boolean().default(false),
    })
    .prefault({}),
  /** What happens to a failed strategy's open orders. */
  onStrategyFailure: z.enum(['cancel', 'keep']).default('cancel'),
  /**
   * When no strategy is running any more because they failed: `stop` (default) cancels the open orders and ends the
   * process with a non-zero exit code and the reason; `keep` keeps the bot running (streams, ops endpoint).
   */
  onAllStrategiesFailed: z.enum(['stop', 'keep']).default('stop'),
  shutdown: z.strictObject({ cancelOpenOrders: z.boolean().default(true), timeoutMs: z.number().int().positive().default(10_000) }).prefault({}),
  ops: z.strictObject({ host: z.string().default('127.0.0.1'), port: portSchema.default(0), enabled: z.boolean().default(true) }).prefault({}),
  log: z
    .strictObject({
      level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).default('info'),
      /** `auto` (default): readable coloured lines on a terminal, JSON lines otherwise; or always `json` / `pretty`. */
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
    })
    .prefault({}),
  /** Rate limit of the venue per API key (the service allowed about 60 calls a minute). */
  callsPerMinute: z.number().int().positive().default(60),
  /** Sharing that budget between processes (see README "Several bot processes on one API key"). */
  rateLimit: rateLimitSchema.prefault({}),
}).superRefine((cfg, ctx) => {
  for (const issue of v1PrecisionIssues(cfg)) ctx.addIssue({ code: 'custom', ...issue });
  if (cfg.rateLimit.shared === undefined) return;
  try {
    budgetRule({ callsPerMinute: cfg.callsPerMinute, ...cfg.rateLimit });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const field = err.field === 'callsPerMinute' ? ['callsPerMinute'] : ['rateLimit', err.field];
    ctx.addIssue({ code: 'custom', path: field, message: err.message.slice(err.field.length + 2) });
  }
});

/** A parsed bot config. */
export type BotConfig = z.output<typeof botConfigSchema> & { readonly file: string };

/** The JSON Schema of the YAML a user writes (input side: decimals as strings or numbers). */
export function botConfigJsonSchema(): unknown {
  return z.toJSONSchema(botConfigSchema, { io: 'input', unrepresentable: 'any' });
}

/** The interface version a venue speaks: `v1` (legacy v1.1) or `v3`; a backtest venue has no wire, so `v3`. */
export function venueDialect(venue: BotConfig['venue']): 'v3' | 'v1' {
  return 'dialect' in venue ? venue.dialect : 'v3';
}

/** Load, validate and post-check a bot config file. Errors name file, line and field. */
export function loadBotConfig(file: string, env: NodeJS.ProcessEnv = process.env): BotConfig {
  const cfg = loadYamlConfig(file, botConfigSchema, env);
  const names = new Set<string>();
  for (const [i, s] of cfg.strategies.entries()) {
    if (names.has(s.name)) throw new ConfigError(file, [{ path: `strategies[${i}].name`, message: `duplicate strategy name '${s.name}'` }]);
    names.add(s.name);
  }
  if (venueDialect(cfg.venue) === 'v1' && cfg.transport !== 'classic') {
    // The v1.1 hub (c2) was only ever a classic SignalR hub; there is nothing for @microsoft/signalr to talk to.
    throw new ConfigError(file, [{ path: 'transport', message: `venue.dialect v1 streams over the classic SignalR hub c2 only; transport '${cfg.transport}' has no v1.1 form (use classic)` }]);
  }
  if (cfg.venue.kind === 'live' && !resolveCredentials({ ...cfg, file })) {
    throw new ConfigError(file, [{ path: 'credentials', message: 'a live venue needs credentials (apiKey/apiSecret from the environment, or credentials.file)' }]);
  }
  return { ...cfg, file };
}

/**
 * `venue.precision` and `venue.v3RestUrl` belong to `dialect: v1` (v3 publishes each market's precision itself), and
 * a live v1 venue must say each strategy market's precision one way or the other: v1.1 does not, and a guess is
 * either refused by the venue (too fine) or quotes coarser than it allows (see the v1.1 gateway's WIRE note).
 */
function v1PrecisionIssues(cfg: { venue: z.output<typeof venueSchema>; strategies: z.output<typeof strategySchema>[] }): { path: PropertyKey[]; message: string }[] {
  const venue = cfg.venue;
  if (venue.kind === 'backtest') return [];
  const v3RestUrl = venue.kind === 'live' ? venue.v3RestUrl : undefined;
  if (venue.dialect === 'v3') {
    const extra = [...(venue.precision ? ['precision'] : []), ...(v3RestUrl !== undefined ? ['v3RestUrl'] : [])];
    return extra.map((key) => ({ path: ['venue', key], message: `is for venue.dialect v1 only: v3 publishes each market's precision itself` }));
  }
  if (venue.kind !== 'live' || v3RestUrl !== undefined) return [];
  const issues: { path: PropertyKey[]; message: string }[] = [];
  for (const [i, s] of cfg.strategies.entries()) {
    for (const [j, m] of s.markets.entries()) {
      if (venue.precision?.[m] !== undefined) continue;
      issues.push({
        path: ['strategies', i, 'markets', j],
        message: `v1.1 publishes no rate precision for ${m} and the venue refuses a finer rate (RATE_PRECISION_NOT_ALLOWED): give venue.precision.${m} (its decimals) or venue.v3RestUrl (the same engine's v3 REST, which publishes it)`,
      });
    }
  }
  return issues;
}

/** The API key and secret a config names, reading `credentials.file` when given; undefined when none. */
export function resolveCredentials(cfg: Pick<BotConfig, 'credentials' | 'file'>): { apiKey: string; apiSecret: string } | undefined {
  const c = cfg.credentials;
  if (!c) return undefined;
  if (c.file) {
    const path = resolve(dirname(cfg.file), c.file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ConfigError(cfg.file, [{ path: 'credentials.file', message: `cannot read ${path}: ${(err as Error).message}` }]);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON.parse's message: it quotes the text around the mistake, which is the secret itself.
      throw new ConfigError(cfg.file, [{ path: 'credentials.file', message: `${path} is not valid JSON; it must hold {"apiKey": "...", "apiSecret": "..."}` }]);
    }
    const p = parsed as { apiKey?: unknown; apiSecret?: unknown };
    if (typeof p.apiKey !== 'string' || typeof p.apiSecret !== 'string') {
      throw new ConfigError(cfg.file, [{ path: 'credentials.file', message: `${path} must hold {"apiKey": "...", "apiSecret": "..."}` }]);
    }
    return { apiKey: p.apiKey, apiSecret: p.apiSecret };
  }
  if (c.apiKey && c.apiSecret) return { apiKey: c.apiKey, apiSecret: c.apiSecret };
  return undefined;
}
