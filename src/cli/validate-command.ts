/**
 * `rexbot validate <config.yaml>`: check a bot config without trading — the YAML against the schema (errors name
 * file, line and field), every strategy plugin loads and its params pass the plugin's schema.
 */
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../runtime/config/yaml-config.js';
import { loadBotConfig } from '../runtime/bot-config.js';
import { loadConfiguredStrategy } from '../strategy/load-strategy.js';
import type { Command } from './main.js';

/** The `validate` command. */
export const validateCommand: Command = {
  async run(args) {
    const file = args.find((a) => !a.startsWith('-'));
    if (!file) {
      process.stderr.write('usage: rexbot validate <config.yaml>\n');
      return 2;
    }
    try {
      const cfg = loadBotConfig(file);
      const baseDir = dirname(resolve(file));
      for (const s of cfg.strategies) {
        await loadConfiguredStrategy({ use: s.use, name: s.name, params: s.params }, { baseDir });
      }
      process.stdout.write(`${file}: ok (${cfg.strategies.length} strateg${cfg.strategies.length === 1 ? 'y' : 'ies'}, venue ${cfg.venue.kind})\n`);
      return 0;
    } catch (err) {
      process.stderr.write(`${err instanceof ConfigError ? err.message : `${file}: ${(err as Error).message}`}\n`);
      return 1;
    }
  },
};
