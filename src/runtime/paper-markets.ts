/**
 * A paper bot trades against a simulator whose markets its config fixes (`venue.simulator`, or the defaults), so a
 * strategy market that simulator does not list is a mistake in the bot's YAML, found before anything starts:
 * `rexbot run` refuses the config and `rexbot validate` fails it, both at the market's line. (It used to pass
 * validate as "setup not rehearsed" and stop `rexbot run` with a stack trace once the simulator was up.)
 */
import { readFileSync } from 'node:fs';
import type { BotConfig } from './bot-config.js';
import { ConfigError, yamlLocator, type ConfigIssue } from './config/yaml-config.js';

/**
 * Throw a {@link ConfigError} naming, at its line, every market of an enabled strategy that `listed` (the paper
 * simulator's markets) lacks.
 *
 * @example
 * assertPaperMarkets(cfg, engineConfigOf(simCfg).markets.map((m) => m.symbol));
 * // invalid config bot.yaml:
 * //   bot.yaml:4:15 strategies[0].markets[0]: BTC-EUR is not a market of the paper simulator (its markets, from sim.yaml: ADA-USDT, ...)
 */
export function assertPaperMarkets(cfg: BotConfig, listed: readonly string[]): void {
  const known = new Set(listed);
  const unknown: { strategy: number; index: number; market: string }[] = [];
  for (const [strategy, s] of cfg.strategies.entries()) {
    if (!s.enabled) continue;
    for (const [index, market] of s.markets.entries()) if (!known.has(market)) unknown.push({ strategy, index, market });
  }
  if (unknown.length === 0) return;
  let text = '';
  try {
    text = readFileSync(cfg.file, 'utf8');
  } catch {
    // The config was read a moment ago; if it is gone now the issue is still reported, without a position.
  }
  const locate = yamlLocator(text);
  const source = cfg.venue.kind === 'paper' && cfg.venue.simulator ? cfg.venue.simulator : 'its defaults, no venue.simulator';
  const issues: ConfigIssue[] = unknown.map((u) => ({
    path: `strategies[${u.strategy}].markets[${u.index}]`,
    message: `${u.market} is not a market of the paper simulator (its markets, from ${source}: ${[...known].sort().join(', ')})`,
    ...locate(['strategies', u.strategy, 'markets', u.index]),
  }));
  throw new ConfigError(cfg.file, issues);
}
