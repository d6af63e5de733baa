/**
 * `rexbot run <config.yaml>`: run a bot until SIGINT/SIGTERM, then shut down gracefully (strategies stop, in-flight
 * requests settle, open orders are cancelled if the config says so, the journal is flushed). A second signal
 * during shutdown exits at once. Everything that can be checked is checked before anything starts: the config,
 * every plugin and its params. A bot left with no running strategy stops by itself and exits 1 with the reason
 * (unless `onAllStrategiesFailed: keep`).
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../runtime/config/yaml-config.js';
import { loadBotConfig } from '../runtime/bot-config.js';
import type { Logger } from 'pino';
import { runBot, type RunningBot } from '../runtime/bot-runner.js';
import { PluginError } from '../strategy/strategy-errors.js';
import { createLogger, resolveLogFormat, type LogFormat } from '../telemetry/logger.js';
import { notePluginsOf } from './exit-when-done.js';
import type { Command } from './main.js';

const USAGE = `usage: rexbot run <config.yaml> [--pretty | --json]

Run a bot until Ctrl-C (paper trading against the embedded simulator when the config's venue is paper).
  --pretty   readable coloured log lines (the default on a terminal; or log.format: pretty)
  --json     JSON log lines (the default when output is not a terminal; or log.format: json)
Exit 0 after a graceful stop, 1 when the bot failed or stopped because no strategy was left running,
2 for a bad command line, config or plugin.`;

/** The `run` command. */
export const runCommand: Command = {
  usage: USAGE,
  async run(args) {
    let parsed;
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: { pretty: { type: 'boolean' }, json: { type: 'boolean' } } });
    } catch (err) {
      process.stderr.write(`rexbot run: ${(err as Error).message}\n${USAGE}\n`);
      return 2;
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1 || (values.pretty && values.json)) {
      process.stderr.write(`${values.pretty && values.json ? 'rexbot run: --pretty and --json exclude each other\n' : ''}${USAGE}\n`);
      return 2;
    }
    const file = positionals[0]!;
    let cfg;
    try {
      cfg = loadBotConfig(file);
    } catch (err) {
      process.stderr.write(`rexbot run: ${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
      return 2;
    }
    notePluginsOf(file);
    const flag: LogFormat | undefined = values.pretty ? 'pretty' : values.json ? 'json' : undefined;
    const format = resolveLogFormat(cfg.log.format, flag, process.stdout.isTTY);
    const logger = createLogger({ name: cfg.bot.name, level: cfg.log.level, format });
    let bot;
    try {
      bot = await runBot(cfg, { logger });
    } catch (err) {
      if (err instanceof PluginError || err instanceof ConfigError) {
        process.stderr.write(`rexbot run: ${err.message}\n`);
        return 2;
      }
      logger.fatal({ err }, 'bot failed to start');
      return 1;
    }
    // Signal listeners do not keep Node's loop alive, and the bot's wall-clock timers are unref'd (systemClock): while
    // the hub waits out its reconnect backoff after the venue went away, nothing else may hold the process, which
    // then ended mid-run (exit 13) with its orders open. The bot runs until it is stopped: held until then.
    const running = setInterval(() => undefined, 2 ** 31 - 1);
    try {
      return await runUntilStopped(bot, cfg.shutdown.timeoutMs, logger);
    } finally {
      clearInterval(running);
    }
  },
};

/** Run the started `bot` until a signal, its failure or a stray error; then stop it. Resolves with the exit code. */
async function runUntilStopped(bot: RunningBot, shutdownTimeoutMs: number, logger: Logger): Promise<number> {
  type Outcome = { signal: true } | { failed: string } | { stray: unknown };
  const outcome = await new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (o: Outcome): boolean => {
      if (settled) return false;
      settled = true;
      resolve(o);
      return true;
    };
    const stop = () => settle({ signal: true });
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // A promise rejected with nobody to hear it, or a throw from a callback of nobody's (a plugin's own timer or
    // promise, outside what the strategy runner isolates), would end the process at once with orders left open:
    // the bot stops as on a signal instead, and says why.
    // One that comes once the bot is stopping is not silenced either: logged, and the stop goes on.
    const stray = (err: unknown) => {
      if (!settle({ stray: err })) logger.error({ err }, 'unexpected error while stopping');
    };
    process.on('unhandledRejection', stray);
    process.on('uncaughtException', stray);
    void bot.failed.then((reason) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      settle({ failed: reason });
    });
  });
  if ('failed' in outcome) {
    // The bot has already cancelled its orders and stopped; say why on stderr too, where a person looks.
    process.stderr.write(`rexbot run: stopped: ${outcome.failed}\n`);
    return 1;
  }
  const strayError = 'stray' in outcome ? outcome.stray : undefined;
  if ('stray' in outcome) {
    logger.error({ err: strayError }, 'unexpected error outside every strategy\'s isolation (an unhandled rejection or an uncaught exception): stopping the bot');
  }
  const force = () => process.exit(130);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  const timeout = setTimeout(() => {
    logger.error({ timeoutMs: shutdownTimeoutMs }, 'shutdown timed out');
    process.exit(1);
  }, shutdownTimeoutMs);
  timeout.unref();
  await bot.stop();
  clearTimeout(timeout);
  if ('stray' in outcome) {
    process.stderr.write(`rexbot run: stopped: unexpected error: ${strayError instanceof Error ? strayError.message : String(strayError)}\n`);
    return 1;
  }
  return 0;
}
