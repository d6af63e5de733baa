/**
 * Market names: v1.1 writes `<QUOTE>-<BASE>` (`BTC-LTC`: LTC priced in BTC), v3 writes `<BASE>-<QUOTE>`
 * (`LTC-BTC`). Seed, "Key field renames": market parameter to marketSymbol with reversed symbol order.
 *
 * WIRE: v1.1 matched market names case-insensitively (the official example asks for `market=btc-ltc`), and
 * always answered them upper case.
 */

const NAME_RE = /^([A-Za-z0-9]{1,20})-([A-Za-z0-9]{1,20})$/;

/**
 * v1.1 market name to v3 symbol, upper-cased; undefined when it is not two currency codes joined by `-`.
 *
 * @example
 * v1MarketToSymbol('btc-ltc') // 'LTC-BTC'
 */
export function v1MarketToSymbol(name: string): string | undefined {
  const m = NAME_RE.exec(name);
  return m ? `${m[2]!.toUpperCase()}-${m[1]!.toUpperCase()}` : undefined;
}

/**
 * v3 symbol to v1.1 market name.
 *
 * @example
 * symbolToV1Market('LTC-BTC') // 'BTC-LTC'
 */
export function symbolToV1Market(symbol: string): string {
  const m = NAME_RE.exec(symbol);
  if (!m) throw new TypeError(`not a market symbol: ${JSON.stringify(symbol)}`);
  return `${m[2]!.toUpperCase()}-${m[1]!.toUpperCase()}`;
}

/** The v1.1 name's two halves: `{ base: 'BTC', market: 'LTC' }` for `BTC-LTC` (v1.1's own words). */
export function splitV1Market(name: string): { baseCurrency: string; marketCurrency: string } | undefined {
  const m = NAME_RE.exec(name);
  return m ? { baseCurrency: m[1]!.toUpperCase(), marketCurrency: m[2]!.toUpperCase() } : undefined;
}
