/**
 * withoutValues: what a queued job's author is told of an error no reader gave a reason for apart. A printed object
 * is left out whole, however deep it nests (a value beside a nested object was told); a message of 100 KB, of any
 * shape, is told at once (each case here would take minutes under a regex that backtracks on it). A wire
 * decoder's error that gives no reason apart makes no promise that its path holds no key received: the path is
 * left out.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WireFormatError } from '../../../src/core/errors.js';
import { errorWithoutValues, withoutValues } from '../../../src/sim/driver/error-without-values.js';
import { readV1WsCapture } from '../../../src/sim/driver/replay-v1-ws-reader.js';

describe('withoutValues', () => {
  it('leaves a printed object out whole, the values beside a nested object too', () => {
    expect(withoutValues('bad level {Rate: SECRETRATE, Inner: {a: b}} here')).toBe('bad level {…} here');
    expect(withoutValues('bad {x {y {z}}} and {w}')).toBe('bad {…} and {…}');
    // an unbalanced brace is no object: what follows it is told as other text is
    expect(withoutValues('unbalanced { open {a} tail')).toBe('unbalanced { open {…} tail');
  });

  it('tells a message of 100 KB of any shape, cut to its length', () => {
    const N = 100_000;
    const shapes = [
      '{'.repeat(N / 2) + '}'.repeat(N / 2),
      '{a'.repeat(N / 4) + '}'.repeat(N / 4),
      '{a}'.repeat(N / 3),
      '{'.repeat(N),
      '"'.repeat(N),
      ('"' + 'a\\\n').repeat(N / 4),
      " 'a".repeat(N / 3),
      '`'.repeat(N),
      '1:'.repeat(N / 2),
      'a-1.b+2.'.repeat(N / 8),
      'é1😀\n'.repeat(N / 5),
    ];
    for (const s of shapes) expect(withoutValues(s).length).toBeLessThanOrEqual(160);
    expect(withoutValues('{'.repeat(N / 2) + '}'.repeat(N / 2))).toBe('{…}');
  });
});

describe("a wire decoder's error without a reason apart", () => {
  it('is told without its path, which may be made of keys received', () => {
    const err = new WireFormatError('v1.1 hub payload', 'Limit.QZXJSECRET.QZXJSECRET', 'nests deeper than 32 levels');
    expect(errorWithoutValues(err, 'uE payload')).toBe('uE payload: nests deeper than … levels');
    expect(errorWithoutValues(new WireFormatError('stream orderBook', '', 'is not a known stream message'))).toBe('is not a known stream message');
  });

  it("a v1.1 capture's payload nested too deep: its keys are not in the job's error", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { QZXJSECRET: deep };
    const payload = deflateRawSync(Buffer.from(JSON.stringify({ M: 'USD-BTC', N: 1, Z: [], S: [], f: [], X: deep }))).toString('base64');
    const line = `1623635619.188: {"C":"d-1","M":[{"H":"C2","M":"uE","A":["${payload}"]}]}`;
    const { errors } = readV1WsCapture(line, 'BITTREX.ws.21', { onBadLine: 'skip' });
    expect(errors.map((e) => e.messageWithoutText())).toEqual(["BITTREX.ws.21:1: uE payload: nests deeper than … levels (the file's text left out)"]);
  });
});
