/** A backtest config over the shipped synthetic data whose one strategy fails at setup (throws-in-setup.ts). */
import { repoPath } from './shared.js';

/** The YAML text of that config. */
export function failingBacktestYaml(): string {
  return `bot: { name: failing }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'))} }]
  balances: { USD: 100000, BTC: 1 }
strategies:
  - { name: broken, use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'throws-in-setup.ts'))}, markets: [BTC-USD] }
`;
}
