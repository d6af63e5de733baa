/**
 * `rexbot run <config.yaml>`: run a bot until SIGINT/SIGTERM, then shut down gracefully (strategies stop, in-flight
 * requests settle, open orders are cancelled if the config says so, the journal is flushed). A second signal
 * during shutdown exits at once.
 */
import { ConfigError } from '../runtime/config/yaml-config.js';
import { loadBotConfig } from '../runtime/bot-config.js';
import { runBot } from '../runtime/bot-runner.js';
import { PluginError } from '../strategy/strategy-errors.js';
import { createLogger } from '../telemetry/logger.js';
import type { Command } from './main.js';

/** The `run` command. */
export const runCommand: Command = {
  async run(args) {
    const file = args.find((a) => !a.startsWith('-'));
    if (!file || args.includes('--help') || args.includes('-h')) {
      process.stdout.write('usage: rexbot run <config.yaml>\n');
      return file ? 0 : 2;
    }
    let cfg;
    try {
      cfg = loadBotConfig(file);
    } catch (err) {
      process.stderr.write(`rexbot run: ${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
      return 2;
    }
    const logger = createLogger({ name: cfg.bot.name, level: cfg.log.level });
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
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    const force = () => process.exit(130);
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    const timeout = setTimeout(() => {
      logger.error({ timeoutMs: cfg.shutdown.timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, cfg.shutdown.timeoutMs);
    timeout.unref();
    await bot.stop();
    clearTimeout(timeout);
    return 0;
  },
};
