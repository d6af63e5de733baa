/**
 * `rexbot validate <config.yaml>`: everything that can be checked without trading, in the order a run would meet
 * it — the YAML against the schema (errors name file, line and field), every strategy plugin loads and its params
 * pass the plugin's schema (placed at their line in the YAML, with "did you mean" for unknown keys), TypeScript
 * plugins type-check, and each strategy's `setup()` and first intents run for a few simulated seconds against an
 * in-process simulated market. Exit 0 when all of it passes, 1 otherwise. The rehearsal's wall-clock watches go on
 * before the plugins load, so their top-level code is watched too, and off when validate ends, however it ends.
 */
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../runtime/config/yaml-config.js';
import { loadBotConfig } from '../runtime/bot-config.js';
import { loadBotPlugins } from '../runtime/bot-plugins.js';
import { dryRun, DRY_RUN_MS } from '../runtime/dry-run.js';
import { rehearsedPlugins, startRehearsalWatches, type RehearsalWatches } from '../runtime/rehearsal-watches.js';
import type { ClockReadUse } from '../runtime/clock-read-watch.js';
import type { RealTimerUse } from '../runtime/real-timer-watch.js';
import type { RiskDenials } from '../runtime/rehearsal-findings.js';
import { PluginError } from '../strategy/strategy-errors.js';
import { formatTypeError, typecheckPlugins } from '../strategy/typecheck-plugins.js';
import type { Command } from './main.js';

const USAGE = `usage: rexbot validate <config.yaml> [--no-typecheck] [--no-dry-run]

Check a bot config without trading:
  1. the YAML against the schema (file:line:col of each problem)
  2. every strategy plugin loads and its params pass its schema
  3. TypeScript plugins type-check (when the typescript package is installed; --no-typecheck skips)
  4. each strategy's setup() and first intents run for ${DRY_RUN_MS / 1000} simulated seconds against an
     in-process simulated market (--no-dry-run skips); a strategy that fails or emits a malformed intent
     (a quantity or rate that is not a Decimal), places an order the venue cannot (a MARKET order on v1.1)
     without declaring it, or lets a rejection go unhandled, fails validation; the ok line counts each
     strategy's intents and the orders the risk engine denied, by reason (INSUFFICIENT_BALANCE: the
     simulated account lacks what the orders need; a paper venue's account is its simulator's demo.balances);
     a strategy that starts wall-clock timers (setTimeout, setInterval, RxJS operators without ctx.scheduler),
     which on the rehearsal's and a backtest's virtual time fire late or never, is a warning on stderr, and so
     is one that reads the wall clock (Date.now(), new Date(), performance.now(), process.hrtime) instead of
     ctx.clock.now(): there the machine's time is past every event the strategy has seen
Exit 0 when everything passes, 1 when something does not, 2 on a bad command line.`;

/** The `validate` command. */
export const validateCommand: Command = {
  usage: USAGE,
  async run(args) {
    const files = args.filter((a) => !a.startsWith('-'));
    const unknown = args.filter((a) => a.startsWith('-') && !['--no-typecheck', '--no-dry-run'].includes(a));
    if (files.length !== 1 || unknown.length > 0) {
      process.stderr.write(`${unknown.length > 0 ? `rexbot validate: unknown option ${unknown[0]}\n` : ''}${USAGE}\n`);
      return 2;
    }
    const file = files[0]!;
    const rehearse = !args.includes('--no-dry-run');
    let watches: RehearsalWatches | undefined;
    try {
      const cfg = loadBotConfig(file);
      // On before the plugins load: their top-level code runs at import (a `Date.now()`, a `setInterval` there is
      // the strategy's too), and a reference saved there (`const now = Date.now`) must be the watched function.
      if (rehearse) watches = startRehearsalWatches(rehearsedPlugins(cfg.strategies, dirname(resolve(cfg.file))));
      const loaded = await loadBotPlugins(cfg);
      if (!args.includes('--no-typecheck')) {
        const tc = await typecheckPlugins(loaded.map((s) => s.path));
        if (!tc.checked) process.stderr.write(`${file}: type check skipped: ${tc.reason}\n`);
        else if (tc.errors.length > 0) {
          process.stderr.write(`${file}: strategy plugins do not type-check:\n${tc.errors.map((e) => `  ${formatTypeError(e)}`).join('\n')}\n`);
          return 1;
        }
      }
      let rehearsal = '';
      if (watches) {
        const r = await dryRun(cfg, { watches });
        if (r.skipped) rehearsal = `; setup not rehearsed: ${r.skipped}`;
        else {
          const problems = r.strategies.flatMap((s) => {
            const out: string[] = [];
            if (s.status === 'failed') out.push(`strategy '${s.name}' failed in a ${r.ranMs / 1000} s simulated run: ${s.error ?? 'unknown error'}`);
            const bad = s.invalidIntents;
            if (bad) {
              out.push(
                `strategy '${s.name}' emitted ${bad.count} malformed intent${bad.count === 1 ? '' : 's'} in a ${r.ranMs / 1000} s simulated run, ` +
                  `which rexbot run would deny (INVALID_INTENT), e.g. key '${bad.key}': ${bad.reason}`,
              );
            }
            const lacked = s.unsupportedOrders;
            if (lacked) {
              out.push(
                `strategy '${s.name}' placed ${lacked.count} order${lacked.count === 1 ? '' : 's'} needing ${lacked.what} in a ${r.ranMs / 1000} s simulated run ` +
                  `(e.g. key '${lacked.key}'), which this venue cannot place (${lacked.why}): rexbot run would have each refused; ` +
                  `place what the venue takes, or declare uses: ['${lacked.feature}'] in defineStrategy so such a config is refused at load`,
              );
            }
            return out;
          });
          for (const stray of r.strayErrors ?? []) {
            problems.push(
              `an error escaped every strategy's isolation in the ${r.ranMs / 1000} s simulated run (an unhandled rejection or an uncaught exception, ` +
                `which stops rexbot run): ${stray}; keep async work inside the strategy's observable (e.g. mergeMap(async ...)), where a failure is that strategy's alone`,
            );
          }
          if (problems.length > 0) {
            process.stderr.write(`${file}: ${problems.join(`\n${file}: `)}\n`);
            return 1;
          }
          rehearsal = `; ${r.ranMs / 1000} s simulated: ${r.strategies.map((s) => `${s.name} ${s.intents} intent${s.intents === 1 ? '' : 's'}${deniedText(s.riskDenials)}`).join(', ')}`;
          // Not a failure (a live run works, and so does the backtest, only differently): said, with the fix.
          for (const s of r.strategies) if (s.realTimers) process.stderr.write(`${file}: warning: ${realTimersText(s.name, s.realTimers, r.ranMs)}\n`);
          for (const s of r.strategies) if (s.clockReads) process.stderr.write(`${file}: warning: ${clockReadsText(s.name, s.clockReads, r.ranMs)}\n`);
        }
      }
      const n = cfg.strategies.length;
      process.stdout.write(`${file}: ok (${n} strateg${n === 1 ? 'y' : 'ies'}, venue ${cfg.venue.kind}${rehearsal})\n`);
      return 0;
    } catch (err) {
      process.stderr.write(`${err instanceof ConfigError || err instanceof PluginError ? err.message : `${file}: ${(err as Error).message}`}\n`);
      return 1;
    } finally {
      // Every global the watches changed is the original again, whether validation passed, failed or threw.
      watches?.stop();
    }
  },
};

/**
 * ` (12 orders denied by risk: INSUFFICIENT_BALANCE 10, PRICE_BAND 2)`, or '' when none was: a rehearsal whose
 * orders were all denied is not one that traded, and the reason (an account without the balance) says what to fix.
 */
function deniedText(d: RiskDenials | undefined): string {
  if (!d) return '';
  const codes = [...d.codes].sort((a, b) => b[1] - a[1]);
  const list = codes.length === 1 ? codes[0]![0] : codes.map(([c, n]) => `${c} ${n}`).join(', ');
  return ` (${d.count} order${d.count === 1 ? '' : 's'} denied by risk: ${list})`;
}

/**
 * The warning for a strategy that started wall-clock timers in the rehearsal: what it started (and where, when its
 * own code did), why that matters, and the clock rules' fix (strategies/README.md).
 */
function realTimersText(strategy: string, t: RealTimerUse, ranMs: number): string {
  const how = t.via === 'rxjs' ? 'by an RxJS operator or interval()/timer() on its default scheduler' : 'by the plugin itself';
  const where = t.at === undefined ? '' : `, at ${t.at}`;
  return (
    `strategy '${strategy}' started ${t.count} wall-clock timer${t.count === 1 ? '' : 's'} in the ${ranMs / 1000} s simulated run ` +
    `(e.g. ${t.api} of ${t.ms} ms, ${how}${where}): a wall-clock timer runs on real time, so in this rehearsal and in a backtest (virtual time) it fires late or ` +
    `never and the strategy does less than it does live; pass ctx.scheduler to every time-based RxJS operator (interval(ms, ctx.scheduler), ` +
    `timer, delay, throttleTime, debounceTime, ...) and use ctx.every(ms) or ctx.clock.setTimeout/setInterval instead of the global timers ` +
    `(strategies/README.md, "Time: the clock rules")`
  );
}

/**
 * The warning for a strategy that read the wall clock in the rehearsal: with what (and where, when its own code
 * did), why that matters, and the clock rules' fix (strategies/README.md).
 */
function clockReadsText(strategy: string, t: ClockReadUse, ranMs: number): string {
  const what = t.apis.length === 1 ? t.apis[0]! : `${t.apis.slice(0, -1).join(', ')} and ${t.apis[t.apis.length - 1]!}`;
  const how =
    t.via === 'plugin'
      ? 'by the plugin itself'
      : t.via === 'rxjs'
        ? 'by an RxJS operator or scheduler on its default clock (timestamp, timeInterval, debounceTime, ... without ctx.scheduler)'
        : `by ${t.library === 'node' ? "Node's own code" : `the library ${t.library ?? ''}`}, which the plugin called`;
  const where = t.at === undefined ? '' : `, at ${t.at}`;
  return (
    `strategy '${strategy}' read the wall clock ${t.count === 1 ? 'once' : `${t.count} times`} in the ${ranMs / 1000} s simulated run ` +
    `(${what}, ${how}${where}): the wall clock is the machine's time, not the bot's: in this rehearsal and in a backtest (virtual time) it is past every ` +
    `recorded event, so the strategy decides on a time the bot is not at and behaves otherwise than live; use ctx.clock.now() (epoch ms on the ` +
    `bot's clock; new Date(ctx.clock.now()) for a Date) and pass ctx.scheduler to RxJS operators that read the time ` +
    `(strategies/README.md, "Time: the clock rules")`
  );
}
