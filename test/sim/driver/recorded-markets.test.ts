/** marketsFromRecordedList over the recorded GET /v3/markets response (test/fixtures/v3-replay/BITTREX.0). */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/sim/catalog.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { CAPTURE_2021_MARKETS, marketsFromRecordedList, marketsFromRecordedText } from '../../../src/sim/driver/recorded-markets.js';
import { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';

const FILE = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/v3-replay/BITTREX.0');

describe('marketsFromRecordedList', () => {
  it('builds the capture markets with their recorded minTradeSize, precision and createdAt', () => {
    const rec = marketsFromRecordedList(FILE, { symbols: CAPTURE_2021_MARKETS });
    expect(rec.markets.map((m) => m.symbol)).toEqual([...CAPTURE_2021_MARKETS]);
    const btcEur = rec.markets[0]!;
    expect(btcEur).toMatchObject({ baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'EUR', precision: 3, status: 'ONLINE' });
    expect(btcEur.minTradeSize.toFixed()).toBe('0.00044994');
    expect(btcEur.createdAt).toBeInstanceOf(Date);
    expect(rec.markets.find((m) => m.symbol === 'FTC-BTC')?.minTradeSize.toFixed()).toBe('62.0689655');
  });

  it('lists every currency the markets use: known ones from the defaults, fiat and tokens generic', () => {
    const rec = marketsFromRecordedList(FILE, { symbols: CAPTURE_2021_MARKETS });
    expect(rec.currencies.map((c) => c.symbol)).toEqual(['BTC', 'CRV', 'DAWN', 'ETH', 'EUR', 'FTC', 'KSM', 'REPV2', 'SOLVE', 'SUKU', 'USD', 'USDT']);
    const byS = new Map(rec.currencies.map((c) => [c.symbol, c]));
    expect(byS.get('BTC')).toEqual(defaultSimConfig().currencies.find((c) => c.symbol === 'BTC'));
    expect(byS.get('EUR')).toMatchObject({ coinType: 'FIAT', minConfirmations: 0 });
    expect(byS.get('KSM')).toMatchObject({ status: 'ONLINE', coinType: 'ETH_CONTRACT' });
  });

  it('gives entries a catalog accepts next to the default configuration', () => {
    const base = defaultSimConfig();
    const rec = marketsFromRecordedList(FILE, { symbols: CAPTURE_2021_MARKETS });
    const known = new Set(base.currencies.map((c) => c.symbol));
    const cfg = defaultSimConfig({
      markets: [...base.markets, ...rec.markets],
      currencies: [...base.currencies, ...rec.currencies.filter((c) => !known.has(c.symbol))],
    });
    const catalog = new Catalog(cfg);
    expect(catalog.market('KSM-USDT').precision).toBe(3);
    expect(catalog.markets()).toHaveLength(base.markets.length + CAPTURE_2021_MARKETS.length);
  });

  it('reads all 909 markets when no symbols are given', () => {
    expect(marketsFromRecordedList(FILE).markets).toHaveLength(909);
  });

  it('names the file and line for an unknown market or a malformed file', () => {
    expect(() => marketsFromRecordedList(FILE, { symbols: ['NOPE-BTC'] })).toThrow(/BITTREX\.0:1: lists no market NOPE-BTC/);
    expect(() => marketsFromRecordedText('garbage', 'm.txt')).toThrow(ReplayFormatError);
    expect(() => marketsFromRecordedText('https://x/v3/markets -> 1.5: [{"symbol":"A-B"}]', 'm.txt')).toThrow(
      /^m\.txt:1: GET \/v3\/markets: \[0\]\.baseCurrencySymbol is missing/,
    );
    expect(() => marketsFromRecordedText('https://x/v3/currencies -> 1.5: []', 'm.txt')).toThrow(/not of GET \/v3\/markets/);
  });
});
