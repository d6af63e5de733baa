/** v1.1 JSON text read and written exactly; dates in the v1.1 form; decoders over the official examples. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { WireFormatError } from '../../../src/core/errors.js';
import {
  decodeV1Market, decodeV1Order, decodeV1OrderBook, formatV1Date, parseV1Date, parseV1Json, stringifyV1,
  throttledMessage, v1MarketToSymbol,
} from '../../../src/wire/v1/index.js';

describe('v1.1 JSON', () => {
  it('keeps every digit of a JSON number (no float on the way)', () => {
    const v = parseV1Json('{"success":true,"message":"","result":{"Bid":12345678901.12345678,"Ask":1e-08,"Last":0.1}}');
    const r = decodeV1MarketTickLike(v);
    expect(r).toEqual(['12345678901.12345678', '0.00000001', '0.1']);
  });

  it('writes decimals as bare 8-decimal numbers, dates in the v1.1 form, nulls kept, undefined left out', () => {
    const text = stringifyV1({ a: dec('0.1'), b: null, c: undefined, d: new Date('2014-07-09T07:22:16.720Z'), e: [true, 'x"y'] });
    expect(text).toBe('{"a":0.10000000,"b":null,"d":"2014-07-09T07:22:16.72","e":[true,"x\\"y"]}');
    expect(JSON.parse(text).a).toBe(0.1);
  });
});

function decodeV1MarketTickLike(v: unknown): string[] {
  const r = (v as { result: Record<string, { value: string }> }).result;
  return ['Bid', 'Ask', 'Last'].map((k) => dec(r[k]!.value).toString());
}

describe('v1.1 dates', () => {
  it.each([
    ['2014-07-09T07:22:16.72', '2014-07-09T07:22:16.720Z'],
    ['2014-02-13T00:00:00', '2014-02-13T00:00:00.000Z'],
    ['2017-11-27T14:07:43.5812345', '2017-11-27T14:07:43.581Z'],
    ['2021-04-05T16:00:58.73Z', '2021-04-05T16:00:58.730Z'],
  ])('reads %s as UTC', (text, iso) => {
    expect(parseV1Date(text)?.toISOString()).toBe(iso);
  });

  it('reads epoch milliseconds (hub fills) and refuses garbage', () => {
    expect(parseV1Date(1617638458730)?.toISOString()).toBe('2021-04-05T16:00:58.730Z');
    expect(parseV1Date('yesterday')).toBeUndefined();
    expect(parseV1Date(-1)).toBeUndefined();
  });

  it('writes trimmed fractions and no zone', () => {
    expect(formatV1Date(new Date('2014-07-09T03:55:48.583Z'))).toBe('2014-07-09T03:55:48.583');
    expect(formatV1Date(new Date('2014-07-09T03:21:20.080Z'))).toBe('2014-07-09T03:21:20.08');
    expect(formatV1Date(new Date('2014-02-13T00:00:00.000Z'))).toBe('2014-02-13T00:00:00');
  });
});

describe('v1.1 decoders', () => {
  it('decode the official getmarkets example', () => {
    const m = decodeV1Market(
      parseV1Json('{"MarketCurrency":"LTC","BaseCurrency":"BTC","MarketCurrencyLong":"Litecoin","BaseCurrencyLong":"Bitcoin","MinTradeSize":0.01,"MarketName":"BTC-LTC","IsActive":true,"IsRestricted":false,"Created":"2014-02-13T00:00:00","Notice":null,"IsSponsored":null,"LogoUrl":null}'),
      '',
      'GET /public/getmarkets',
    );
    expect(m.MinTradeSize.toString()).toBe('0.01');
    expect(m.Created?.toISOString()).toBe('2014-02-13T00:00:00.000Z');
    expect(m.Notice).toBeNull();
  });

  it('decode the service\'s getorder answer (Closed null, PricePerUnit null, extra fields ignored)', () => {
    const o = decodeV1Order(
      parseV1Json('{"AccountId":null,"OrderUuid":"0cb4c4e4-bdc7-4e13-8c13-430e587d2cc1","Exchange":"BTC-SHLD","OrderType":"LIMIT_BUY","Quantity":1000.00000000,"QuantityRemaining":1000.00000000,"Limit":0.00000001,"Reserved":0.00001000,"CommissionPaid":0.00000000,"Price":0.00000000,"PricePerUnit":null,"Opened":"2014-07-13T07:45:46.27","Closed":null,"IsOpen":true,"CancelInitiated":false,"ImmediateOrCancel":false,"IsConditional":false,"Condition":"NONE","ConditionTarget":null}'),
      '',
      'GET /account/getorder',
    );
    expect(o.Uuid).toBeNull();
    expect(o.Closed).toBeNull();
    expect(o.Limit?.toString()).toBe('0.00000001');
  });

  it('read order book levels in both spellings', () => {
    const b = decodeV1OrderBook(parseV1Json('{"buy":[{"Quantity":12.37,"Rate":0.02525}],"sell":[{"quantity":1,"rate":2}]}'), '', 'x');
    expect(b.buy[0]!.rate.toString()).toBe('0.02525');
    expect(b.sell[0]!.quantity.toString()).toBe('1');
  });

  it('name the field and the endpoint on a bad value', () => {
    expect(() => decodeV1Order(parseV1Json('{"OrderUuid":"x","Exchange":"BTC-LTC","OrderType":"LIMIT_BUY","Quantity":"abc"}'), '[0]', 'GET /market/getopenorders')).toThrow(
      new WireFormatError('GET /market/getopenorders', '[0].Quantity', { reason: 'is not a decimal', text: 'is not a decimal: "abc"' }),
    );
    expect(() => decodeV1Market(parseV1Json('{"MarketCurrency":"LTC"}'), '', 'GET /public/getmarkets')).toThrow(/BaseCurrency is missing/);
  });
});

describe('v1.1 names and messages', () => {
  it('reverse market names and refuse what is not one', () => {
    expect(v1MarketToSymbol('USDT-BTC')).toBe('BTC-USDT');
    expect(v1MarketToSymbol('BTC_LTC')).toBeUndefined();
    expect(v1MarketToSymbol('BTC-LTC-X')).toBeUndefined();
  });

  it('word the throttled message as the service did', () => {
    expect(throttledMessage('/account/getbalances')).toBe('Call to GetBalances was throttled. Try again in 60 seconds.');
    expect(throttledMessage('/market/cancel')).toBe('Call to Cancel was throttled. Try again in 60 seconds.');
  });
});
