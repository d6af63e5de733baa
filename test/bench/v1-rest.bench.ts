/**
 * What exactness costs on v1.1 REST answers: a 300-market /public/getmarketsummaries body (the service's largest
 * routine answer) decoded per second into exact v1.1 types (lossless-json keeps every number's text, decoders
 * build Decimals and Dates), against `JSON.parse` alone (floats, nothing checked) in the same run.
 */
import { dec } from '../../src/core/decimal.js';
import { decodeV1MarketSummary, parseV1Json, stringifyV1, v1array } from '../../src/wire/v1/index.js';
import { type Bench, opsPerSecondSync } from './harness.js';

function summariesBody(n: number): string {
  const at = Date.parse('2021-04-05T17:36:51.123Z');
  const result = Array.from({ length: n }, (_, i) => {
    const last = dec(`0.0${(i % 9) + 1}23456${i % 10}`);
    return {
      MarketName: `BTC-C${i}`, High: last.times(1.1).toDecimalPlaces(8), Low: last.times(0.9).toDecimalPlaces(8),
      Volume: dec(`${1000 + i}.12345678`), Last: last, BaseVolume: dec(`${10 + i}.87654321`), TimeStamp: new Date(at + i),
      Bid: last.minus(dec('0.00000010')), Ask: last.plus(dec('0.00000010')), OpenBuyOrders: 100 + i, OpenSellOrders: 200 + i,
      PrevDay: last.times(0.97).toDecimalPlaces(8), Created: new Date(at - 86_400_000 * i), DisplayMarketName: null,
    };
  });
  return stringifyV1({ success: true, message: '', result });
}

const decodeAll = v1array(decodeV1MarketSummary);

export const benches: Bench[] = [
  {
    name: 'v1-summaries-decode',
    async run() {
      const text = summariesBody(300);
      const exact = opsPerSecondSync(() => decodeAll((parseV1Json(text) as { result: unknown }).result, 'result', 'bench'));
      const floats = opsPerSecondSync(() => JSON.parse(text));
      return [{
        bench: 'v1-summaries-decode', value: exact, unit: 'answers/s', baseline: floats,
        note: `300-market getmarketsummaries (${Math.round(text.length / 1024)} KiB) decoded exactly; baseline JSON.parse to floats; ~${(1000 / exact).toFixed(1)} ms an answer against a budget of 60 calls a minute`,
      }];
    },
  },
];
