import { describe, expect, it } from 'vitest';
import {
  buildErrorFrame,
  buildInitFrame,
  buildInvocationFrame,
  buildPushFrame,
  buildResultFrame,
  KEEP_ALIVE_FRAME,
  parseClassicFrame,
  parseInvocationFrame,
  sameName,
} from '../../../src/bittrex/hub/classic-frames.js';
import { WireFormatError } from '../../../src/core/errors.js';
import { loadCapture } from '../../fixtures/v3-capture/load-capture.js';

describe('classic SignalR frames', () => {
  it('parses the frame kinds of the real capture', () => {
    const { frames } = loadCapture();
    const first = parseClassicFrame(frames[0]!.text);
    expect(first).toEqual({ kind: 'init', cursor: 'd-D56EFF76-B,0|nuz,0|nu0,1' });
    const groups = parseClassicFrame(frames[1]!.text);
    expect(groups.kind).toBe('push');
    if (groups.kind === 'push') {
      expect(groups.messages).toEqual([]);
      expect(groups.groupsToken).toMatch(/^6Hn8H2/);
    }
    const result = parseClassicFrame('{"R":[{"Success":true,"ErrorCode":null}],"I":"1"}');
    expect(result).toEqual({ kind: 'result', id: '1', result: [{ Success: true, ErrorCode: null }] });
    const push = frames.map((f) => parseClassicFrame(f.text)).find((f) => f.kind === 'push' && f.messages.length > 0);
    expect(push?.kind === 'push' && push.messages[0]).toMatchObject({ hub: 'C3', method: 'orderBook' });
  });

  it('parses keep-alive, push with several messages, heartbeat with empty A, and the D/T flags', () => {
    expect(parseClassicFrame('{}')).toEqual({ kind: 'keep-alive' });
    const f = parseClassicFrame('{"C":"c1","M":[{"H":"C3","M":"heartbeat","A":[]},{"H":"c3","M":"ticker","A":["x"]}]}');
    expect(f).toEqual({
      kind: 'push',
      cursor: 'c1',
      messages: [
        { hub: 'C3', method: 'heartbeat', args: [] },
        { hub: 'c3', method: 'ticker', args: ['x'] },
      ],
    });
    expect(parseClassicFrame('{"M":[{"H":"C3","M":"authenticationExpiring"}]}')).toMatchObject({
      messages: [{ method: 'authenticationExpiring', args: [] }],
    });
    expect(parseClassicFrame('{"C":"c","D":1,"M":[]}')).toMatchObject({ kind: 'push', disconnect: true });
    expect(parseClassicFrame('{"C":"c","T":1,"M":[]}')).toMatchObject({ kind: 'push', reconnect: true });
  });

  it('parses results (numeric id, void result), errors and progress', () => {
    expect(parseClassicFrame('{"I":7}')).toEqual({ kind: 'result', id: '7', result: undefined });
    expect(parseClassicFrame('{"R":true,"I":"2"}')).toEqual({ kind: 'result', id: '2', result: true });
    expect(parseClassicFrame('{"I":"3","E":"no such method"}')).toEqual({ kind: 'error', id: '3', error: 'no such method' });
    expect(parseClassicFrame('{"I":"3","E":"boom","H":true,"D":{"x":1}}')).toEqual({
      kind: 'error',
      id: '3',
      error: 'boom',
      isHubException: true,
      errorData: { x: 1 },
    });
    expect(parseClassicFrame('{"I":"P|1","P":{"I":"4","D":50}}')).toEqual({ kind: 'progress', id: '4', data: 50 });
    expect(parseClassicFrame('{"Z":1}')).toEqual({ kind: 'other', raw: { Z: 1 } });
  });

  it('rejects malformed frames with a WireFormatError naming the field', () => {
    const cases: [string, RegExp][] = [
      ['not json', /hub frame: <root> is not JSON/],
      ['[1,2]', /hub frame: <root> is not a JSON object/],
      ['"text"', /is not a JSON object/],
      ['{"C":"c","M":[{"M":"orderBook","A":[]}]}', /hub frame: M\[0\]\.H is not a string/],
      ['{"C":"c","M":[{"H":"C3","A":[]}]}', /M\[0\]\.M is not a method name/],
      ['{"C":"c","M":[{"H":"C3","M":"x","A":"y"}]}', /M\[0\]\.A is not an array/],
      ['{"C":"c","M":[7]}', /M\[0\] is not an object/],
      ['{"C":"c","M":"x"}', /hub frame: M is not an array/],
      ['{"C":5,"M":[]}', /hub frame: C is not a string/],
      ['{"R":1,"I":{}}', /hub frame: I is not a call id/],
    ];
    for (const [text, re] of cases) {
      expect(() => parseClassicFrame(text), text).toThrow(WireFormatError);
      expect(() => parseClassicFrame(text), text).toThrow(re);
    }
  });

  it('builds the invocation frame real clients sent, and parses invocations case-insensitively', () => {
    expect(buildInvocationFrame('Subscribe', [['heartbeat', 'trade_BTC-USD']], 1)).toBe(
      '{"H":"c3","M":"Subscribe","A":[["heartbeat","trade_BTC-USD"]],"I":1}',
    );
    const recorded = loadCapture().sent[0]!.text; // {"A":[["candle_SUKU-BTC_MINUTE_1"]],"H":"c3","I":1,"M":"Subscribe"}
    const inv = parseInvocationFrame(recorded);
    expect(inv).toEqual({ hub: 'c3', method: 'Subscribe', args: [['candle_SUKU-BTC_MINUTE_1']], id: '1' });
    expect(sameName(parseInvocationFrame('{"H":"C3","M":"subscribe","A":[[]],"I":"9"}').method, 'Subscribe')).toBe(true);
    expect(sameName('orderbook', 'orderBook')).toBe(true);
    expect(sameName('order', 'orderBook')).toBe(false);
    expect(() => parseInvocationFrame('{"H":"c3","A":[],"I":1}')).toThrow(/hub invocation: M is not a method name/);
    expect(() => parseInvocationFrame('{"H":"c3","M":"x","A":[]}')).toThrow(/hub invocation: I is not a call id/);
  });

  it('server-side builders produce frames the parser reads back', () => {
    expect(parseClassicFrame(KEEP_ALIVE_FRAME)).toEqual({ kind: 'keep-alive' });
    expect(parseClassicFrame(buildInitFrame('c0'))).toEqual({ kind: 'init', cursor: 'c0' });
    expect(parseClassicFrame(buildPushFrame('c1', [{ hub: 'C3', method: 'heartbeat', args: [] }]))).toEqual({
      kind: 'push',
      cursor: 'c1',
      messages: [{ hub: 'C3', method: 'heartbeat', args: [] }],
    });
    expect(buildResultFrame(1, [{ Success: true, ErrorCode: null }])).toBe('{"R":[{"Success":true,"ErrorCode":null}],"I":"1"}');
    expect(parseClassicFrame(buildErrorFrame(4, 'bad'))).toEqual({ kind: 'error', id: '4', error: 'bad' });
  });
});
