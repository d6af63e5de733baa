/**
 * The files a backtest config makes a run read or load — data, measured latencies, recorded markets, strategy
 * plugins named by path — checked against a queue worker's folders ({@link assertInsideRoots}) before any is
 * opened: a queue job's overrides can point any of them anywhere (`venue.data.0.path`, `strategies.0.use`).
 */
import { resolve } from 'node:path';
import type { BacktestBotConfig } from '../run/backtest-session.js';
import { isPathReference, resolveStrategyPath } from '../../src/strategy/load-strategy.js';
import { assertInsideRoots } from './allowed-roots.js';

/** A file a config names: the field that names it and its path (relative to the config's folder when relative). */
interface ConfigFile {
  field: string;
  path: string;
}

/** The strategy plugin files of `strategies` (as written or parsed) that are named by path; names load from rexbot's own folder. */
function strategyFiles(strategies: ReadonlyArray<{ use?: unknown }>, baseDir: string): ConfigFile[] {
  const out: ConfigFile[] = [];
  strategies.forEach((s, i) => {
    if (typeof s.use !== 'string' || !isPathReference(s.use)) return;
    let path: string;
    try {
      // the file that would be imported (an extension added, a link followed by the check)
      path = resolveStrategyPath(s.use, { baseDir });
    } catch {
      path = resolve(baseDir, s.use); // none there: still checked, so a refusal does not depend on what exists
    }
    out.push({ field: `strategies[${i}].use`, path });
  });
  return out;
}

/** Every file `config` names (its folder `baseDir` resolves relative ones). */
function configFiles(config: BacktestBotConfig, baseDir: string): ConfigFile[] {
  const v = config.venue;
  const out: ConfigFile[] = v.data.map((d, i) => ({ field: `venue.data[${i}].path`, path: d.path }));
  for (const which of ['marketData', 'orderEntry', 'cancel'] as const) {
    const l = v.latency[which];
    if (typeof l === 'object' && l.kind === 'file') out.push({ field: `venue.latency.${which}.path`, path: l.path });
  }
  if (v.recordedMarkets) out.push({ field: 'venue.recordedMarkets.file', path: v.recordedMarkets.file });
  return [...out, ...strategyFiles(config.strategies, baseDir)];
}

/**
 * Throws a JobPathError naming the first file `config` names outside `roots`.
 *
 * @example
 * await assertConfigFilesInside(config, dirname(config.file), ['/srv/rexbot']);
 */
export async function assertConfigFilesInside(config: BacktestBotConfig, baseDir: string, roots: readonly string[]): Promise<void> {
  for (const f of configFiles(config, baseDir)) await assertInsideRoots(resolve(baseDir, f.path), roots, f.field);
}

/**
 * Throws a JobPathError naming the first strategy plugin of a config as written (overrides applied so far) that is
 * named by a path outside `roots`: checked before the plugins are loaded to read their params.
 */
export async function assertStrategiesInside(strategies: ReadonlyArray<{ use?: unknown }>, baseDir: string, roots: readonly string[]): Promise<void> {
  for (const f of strategyFiles(strategies, baseDir)) await assertInsideRoots(f.path, roots, f.field);
}
