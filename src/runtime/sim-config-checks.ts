/**
 * What config/sim.yaml's schema cannot see field by field: the names its fields share (a driver market must be a
 * market of the exchange, a per-market override must be for a driven market, a demo balance must be in a currency
 * the exchange lists) and the files it names (recorded markets, replay captures). Each problem names the field it
 * is about, so the loader places it at its line like a schema error; without these checks the simulator failed at
 * start with the engine's own words (`CURRENCY_DOES_NOT_EXIST: currency DOGE does not exist`, `ENOENT ...`) and no
 * file or field, or started and silently ignored the setting.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { defaultSimConfig } from '../sim/config.js';
import { marketsFromRecordedList } from '../sim/driver/recorded-markets.js';
import type { z } from 'zod';
import type { simFileSchema } from './sim-config.js';

/** One problem: the field path (or the key `key` of the map at `path`) and what is wrong with it. */
export interface SimConfigProblem {
  path: PropertyKey[];
  key?: string | undefined;
  message: string;
}

type Parsed = z.output<typeof simFileSchema>;

/** Why `file` (resolved against `baseDir`) cannot be read as a data file, or undefined when it can. */
function fileProblem(baseDir: string, file: string): string | undefined {
  const path = isAbsolute(file) ? file : resolve(baseDir, file);
  try {
    const st = statSync(path);
    return st.isFile() ? undefined : `${path} is not a regular file`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${path} does not exist` : `cannot read ${path}: ${code ?? (err as Error).message}`;
  }
}

/**
 * Every cross-field and file problem of a parsed sim config (relative paths resolve against `baseDir`), in the
 * file's reading order. Reads the recorded-markets file when one is named (that is where its markets and
 * currencies come from).
 *
 * @example
 * simConfigProblems(simFileSchema.parse({ driver: { kind: 'synthetic', markets: ['DOGE-USD'] } }), '.')
 * // [{ path: ['driver', 'markets', 0], message: 'DOGE-USD is not a market of the exchange; ...' }]
 */
export function simConfigProblems(cfg: Parsed, baseDir: string): SimConfigProblem[] {
  const out: SimConfigProblem[] = [];
  const base = defaultSimConfig();
  const catalog = base.markets.map((m) => m.symbol);
  const currencies = new Set(base.currencies.map((c) => c.symbol));

  const listed = cfg.exchange.markets ?? catalog;
  for (const [i, m] of (cfg.exchange.markets ?? []).entries()) {
    if (!catalog.includes(m)) out.push({ path: ['exchange', 'markets', i], message: `unknown market ${m}; the simulator knows ${catalog.join(', ')} (others come from exchange.recordedMarkets)` });
  }
  const markets = new Set(listed.filter((m) => catalog.includes(m)));

  const rec = cfg.exchange.recordedMarkets;
  if (rec) {
    const missing = fileProblem(baseDir, rec.file);
    if (missing) out.push({ path: ['exchange', 'recordedMarkets', 'file'], message: missing });
    else {
      try {
        const recorded = new Set(marketsFromRecordedList(isAbsolute(rec.file) ? rec.file : resolve(baseDir, rec.file)).markets.map((m) => m.symbol.toUpperCase()));
        for (const [i, s] of rec.symbols.entries()) {
          if (!recorded.has(s.toUpperCase())) out.push({ path: ['exchange', 'recordedMarkets', 'symbols', i], message: `${rec.file} lists no market ${s}` });
          else markets.add(s);
        }
      } catch (err) {
        out.push({ path: ['exchange', 'recordedMarkets', 'file'], message: (err as Error).message });
      }
    }
    // A recorded market brings its currencies (entries made from the file when the defaults lack them).
    for (const s of rec.symbols) for (const c of s.split('-')) currencies.add(c);
  }

  const exchangeNames = `the exchange's markets (${[...markets].join(', ') || 'none'})`;
  const driver = cfg.driver;
  if (driver.kind !== 'none') {
    for (const [i, m] of (driver.markets ?? []).entries()) {
      if (!markets.has(m)) out.push({ path: ['driver', 'markets', i], message: `${m} is not one of ${exchangeNames}: add it to exchange.markets (or exchange.recordedMarkets)` });
    }
  }
  if (driver.kind === 'synthetic') {
    const driven = new Set(driver.markets ?? markets);
    for (const m of Object.keys(driver.perMarket ?? {})) {
      if (!driven.has(m)) {
        const which = driver.markets ? `driver.markets (${driver.markets.join(', ')})` : exchangeNames;
        out.push({ path: ['driver', 'perMarket'], key: m, message: `${m} is not among ${which}: its settings would never be used` });
      }
    }
  }
  if (driver.kind === 'replay') {
    for (const field of ['ws', 'http', 'recordings', 'v1Ws'] as const) {
      for (const [i, f] of (driver[field] ?? []).entries()) {
        const problem = fileProblem(baseDir, f);
        if (problem) out.push({ path: ['driver', field, i], message: problem });
      }
    }
  }

  for (const c of Object.keys(cfg.demo.balances)) {
    if (!currencies.has(c)) out.push({ path: ['demo', 'balances'], key: c, message: `unknown currency ${c}; the exchange lists ${[...currencies].sort().join(', ')}` });
  }
  return out;
}
