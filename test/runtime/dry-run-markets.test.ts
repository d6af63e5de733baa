/**
 * `rexbot validate`'s rehearsal moves the markets its strategies trade, and only those (the simulator's defaults
 * list nine, each with a day of history, makers and takers: most of the rehearsal's cost for a one-market bot).
 * A strategy that places one order on the first trade it sees shows its own market moved, in any market, with the
 * simulator's defaults and with a simulator config that names its markets.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { dryRun } from '../../src/runtime/dry-run.js';
import { repoPath } from '../helpers/shared.js';

// Inside the repository (git-ignored), so the plugin's bare `import ... from 'rxjs'` resolves.
const tmp = mkdtempSync(join(repoPath('test'), '.tmp-dry-run-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

writeFileSync(join(tmp, 'package.json'), '{"type": "module"}\n');
writeFileSync(
  join(tmp, 'first-trade.ts'),
  `import { dec, defineStrategy, z } from ${JSON.stringify(repoPath('src', 'strategy', 'public-api.ts'))};\n` +
    `import { map, take } from 'rxjs';\n` +
    `export default defineStrategy({ name: 'first-trade', params: z.strictObject({}), setup: (ctx) => ctx.trades$(ctx.markets[0]!).pipe(take(1), ` +
    `map((t) => ({ kind: 'place', key: 'k', order: { marketSymbol: ctx.markets[0]!, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: t.rate.div(2).toDecimalPlaces(3) } }) as never)) });\n`,
);

function bot(name: string, market: string, simYaml?: string): string {
  const dir = mkdtempSync(join(tmp, `${name}-`));
  let venue = '';
  if (simYaml !== undefined) {
    writeFileSync(join(dir, 'sim.yaml'), simYaml);
    venue = 'venue: { kind: paper, simulator: ./sim.yaml }\n';
  }
  writeFileSync(join(dir, 'bot.yaml'), `${venue}strategies:\n  - { name: s, use: ${JSON.stringify(join(tmp, 'first-trade.ts'))}, markets: [${market}] }\n`);
  return join(dir, 'bot.yaml');
}

describe('the validate rehearsal', { timeout: 120_000 }, () => {
  it.each(['BTC-USD', 'ETH-BTC'])('moves the traded market %s with the simulator defaults', async (market) => {
    const r = await dryRun(loadBotConfig(bot('defaults', market)));
    expect(r.skipped).toBeUndefined();
    // One intent, then its observable completes (take(1)): the strategy stops without an error. Its order, at
    // half the trade's price, is outside the risk engine's price band, and the rehearsal counts that denial.
    expect(r.strategies).toEqual([{ name: 's', status: 'stopped', error: undefined, intents: 1, riskDenials: expect.objectContaining({ count: 1 }) }]);
    expect(r.strategies[0]!.riskDenials!.codes.get('PRICE_BAND')).toBe(1);
  });

  it('moves it when the simulator config names its markets, and a market it does not name stays still', async () => {
    const named = await dryRun(loadBotConfig(bot('named', 'ETH-USD', 'driver: { kind: synthetic, markets: [BTC-USD, ETH-USD] }\n')));
    expect(named.strategies.map((s) => s.intents)).toEqual([1]);
    const unnamed = await dryRun(loadBotConfig(bot('unnamed', 'ETH-USD', 'driver: { kind: synthetic, markets: [BTC-USD], historyHours: 0 }\n')));
    expect(unnamed.strategies.map((s) => [s.status, s.intents])).toEqual([['running', 0]]);
  });
});
