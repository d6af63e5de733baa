/**
 * Loading a bot's strategy plugins before anything starts: every `strategies:` entry is imported and its params
 * checked against the plugin's schema. A params problem becomes a {@link ConfigError} placed at its line and
 * column in the YAML (`config/paper.yaml:21:7 strategies[0].params.sprad: unknown field "sprad"; did you mean
 * "spread"?`), like every other config error; a plugin that cannot be loaded stays a {@link PluginError}.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { loadStrategy, type ConfiguredStrategy } from '../strategy/load-strategy.js';
import { parseStrategyParams } from '../strategy/define-strategy.js';
import { PluginError } from '../strategy/strategy-errors.js';
import { venueLacks, type LackedCapability, type VenueFeature } from '../model/venue-features.js';
import { venueDialect, type BotConfig } from './bot-config.js';
import { droppedKeys, knownKeysAt, unknownKeyMessage } from './config/did-you-mean.js';
import { ConfigError, yamlLocator, type ConfigIssue } from './config/yaml-config.js';

/** A configured strategy entry with its loaded plugin. */
export interface LoadedBotStrategy extends ConfiguredStrategy {
  /** Index in the config's `strategies:` list. */
  index: number;
  enabled: boolean;
}

/**
 * Load and check every strategy plugin of `cfg` (enabled or not: a disabled entry that is broken is still a
 * broken config). Throws a ConfigError listing every params problem of every strategy at once, or the first
 * PluginError of a plugin that cannot be loaded.
 *
 * @example
 * const strategies = await loadBotPlugins(loadBotConfig('config/paper.yaml'));
 */
export async function loadBotPlugins(cfg: BotConfig): Promise<LoadedBotStrategy[]> {
  const baseDir = dirname(resolve(cfg.file));
  const out: LoadedBotStrategy[] = [];
  const issues: ConfigIssue[] = [];
  let locate: ReturnType<typeof yamlLocator> | undefined;
  const where = (path: PropertyKey[], key?: string) => {
    if (!locate) {
      let text = '';
      try {
        text = readFileSync(cfg.file, 'utf8');
      } catch {
        // The config was read a moment ago; if it is gone now the issue is still reported, without a position.
      }
      locate = yamlLocator(text);
    }
    return locate(path, key);
  };
  for (const [index, s] of cfg.strategies.entries()) {
    let loaded: Awaited<ReturnType<typeof loadStrategy>>;
    try {
      loaded = await loadStrategy(s.use, { baseDir });
    } catch (err) {
      // A name that is no strategy is a mistake in this file: the error says where, as config errors do.
      if (!(err instanceof PluginError) || err.code !== 'PLUGIN_NOT_FOUND') throw err;
      const at = where(['strategies', index, 'use']);
      const place = at.line === undefined ? cfg.file : `${cfg.file}:${at.line}:${at.col ?? 1}`;
      throw new PluginError({ code: err.code, problem: `${err.problem}, named at ${place} strategies[${index}].use`, strategy: err.strategy, path: err.path, cause: err });
    }
    const { definition, path } = loaded;
    try {
      const params = parseStrategyParams(definition, s.params, { strategy: s.name, path });
      out.push({ definition, path, name: s.name, params, index, enabled: s.enabled });
      const missing = unsupportedFeatures(cfg, definition.uses(params));
      if (missing.length > 0) {
        issues.push({
          path: `strategies[${index}].use`,
          message: `strategy '${s.name}' uses ${missing.map((m) => m.what).join(' and ')}, which the v1.1 interface cannot place (venue.dialect: v1 trades LIMIT orders only, GOOD_TIL_CANCELLED or IMMEDIATE_OR_CANCEL); choose params without them or venue.dialect: v3`,
          ...where(['strategies', index, 'use']),
        });
      }
    } catch (err) {
      if (!(err instanceof PluginError) || err.code !== 'PLUGIN_INVALID_PARAMS') throw err;
      issues.push(...paramsIssues(definition.params, s.params, index, where));
      if (issues.length === 0) throw err;
    }
  }
  if (issues.length > 0) throw new ConfigError(cfg.file, issues);
  return out;
}

/** The features a strategy declares that the bot's venue lacks (one table for config, gateway and conformance suite). */
function unsupportedFeatures(cfg: BotConfig, features: readonly VenueFeature[]): LackedCapability[] {
  const lacks = venueLacks(venueDialect(cfg.venue));
  return [...new Set(features)].flatMap((f) => lacks[f] ?? []);
}

/** The zod issues of `raw` against `schema`, as config issues under `strategies[index].params`. */
function paramsIssues(
  schema: z.ZodType,
  raw: unknown,
  index: number,
  where: (path: PropertyKey[], key?: string) => { line?: number; col?: number },
): ConfigIssue[] {
  const base: PropertyKey[] = ['strategies', index, 'params'];
  let result: ReturnType<z.ZodType['safeParse']>;
  try {
    result = schema.safeParse(raw ?? {});
  } catch {
    return [];
  }
  const issues: ConfigIssue[] = [];
  // Keys a plain z.object would drop silently are refused as a strict object's are (strategy/params.ts).
  for (const key of droppedKeys(schema, raw)) {
    issues.push({ path: pathText([...base, key]), message: unknownKeyMessage(key, knownKeysAt(schema, [])), ...where(base, key) });
  }
  if (result.success) return issues;
  for (const iss of result.error.issues) {
    if (iss.code === 'unrecognized_keys') {
      for (const key of iss.keys) {
        issues.push({ path: pathText([...base, ...iss.path, key]), message: unknownKeyMessage(key, knownKeysAt(schema, iss.path)), ...where([...base, ...iss.path], key) });
      }
      continue;
    }
    issues.push({ path: pathText([...base, ...iss.path]), message: iss.message, ...where([...base, ...iss.path]) });
  }
  return issues;
}

function pathText(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}
