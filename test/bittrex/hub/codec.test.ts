import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePayload, encodePayload, pakoCodec, payloadCodec, reusableCodec, zlibCodec } from '../../../src/bittrex/hub/codec.js';
import { WireFormatError } from '../../../src/core/errors.js';
import { WireNumber } from '../../../src/core/wire-number.js';
import { parseClassicFrame } from '../../../src/bittrex/hub/classic-frames.js';
import { loadCapture } from '../../fixtures/v3-capture/load-capture.js';

const sample = {
  marketSymbol: 'BTC-EUR',
  depth: 500,
  sequence: 3209226,
  bidDeltas: [],
  askDeltas: [{ quantity: '0', rate: '32601.41900000' }, { quantity: '0.78077215', rate: '32664.86600000' }],
};

describe('hub payload codec', () => {
  it('decodes a real captured payload (base64 of raw deflate) to the recorded JSON', () => {
    const frame = parseClassicFrame(loadCapture().frames.find((f) => f.text.includes('"orderBook"'))!.text);
    if (frame.kind !== 'push') throw new Error('expected a push frame');
    const arg = frame.messages[0]!.args[0] as string;
    expect(decodePayload(arg)).toEqual(sample);
    expect(zlibCodec.decode(arg)).toEqual(sample);
  });

  const codecs = [reusableCodec, pakoCodec, zlibCodec];
  for (const codec of codecs) {
    it(`${codec.name}: round-trips, and each implementation reads the others' output`, () => {
      const text = { note: 'ünïcödé ✓', n: 1.5, list: [1, 2, 3], nested: { a: null } };
      expect(codec.decode(codec.encode(text))).toEqual(text);
      for (const other of codecs) {
        expect(other.decode(codec.encode(sample))).toEqual(sample);
        expect(other.decode(codec.encode(text))).toEqual(text);
      }
    });

    it(`${codec.name}: rejects bad input with a WireFormatError naming the hub payload`, () => {
      const bad = [
        '',
        'not base64 at all!',
        Buffer.from('plain text').toString('base64'),
        deflateSync(Buffer.from('{"a":1}')).toString('base64'), // zlib header, not raw
        gzipSync(Buffer.from('{"a":1}')).toString('base64'),
        codec.encode('x').slice(0, 2),
      ];
      for (const b of bad) {
        const err = (() => {
          try {
            codec.decode(b);
          } catch (e) {
            return e;
          }
          return undefined;
        })();
        expect(err, JSON.stringify(b)).toBeInstanceOf(WireFormatError);
        expect((err as WireFormatError).where).toBe('hub payload');
      }
    });

    it(`${codec.name}: rejects deflated text that is not JSON`, () => {
      const notJson = deflateRawSync(Buffer.from('{"a":')).toString('base64');
      expect(() => codec.decode(notJson)).toThrow(/hub payload: .*not JSON/);
    });
  }

  it('keeps the text of a number a double cannot hold, in every implementation, so decoders judge what was sent', () => {
    // JSON.parse read this quantity as 1: another amount than the venue sent.
    const wire = deflateRawSync(Buffer.from('{"quantity":1.0000000000000001,"sequence":9007199254740993,"depth":25}')).toString('base64');
    for (const codec of codecs) {
      const v = codec.decode(wire) as Record<string, unknown>;
      expect(v.quantity, codec.name).toEqual(new WireNumber('1.0000000000000001'));
      expect(v.sequence, codec.name).toEqual(new WireNumber('9007199254740993'));
      expect(v.depth, codec.name).toBe(25);
    }
  });

  it('decodes payloads of every size the same as node:zlib, one after another on the same buffers', () => {
    // Grows past the reusable codec's first buffers and comes back down: no output of an earlier call may leak.
    const values = [3, 2_000, 40, 30_000, 1, 7_000, 5].map((n) => ({
      levels: Array.from({ length: n }, (_, i) => ({ rate: (30_000 + i / 7).toFixed(8), quantity: ((i * 37) % 101).toFixed(8) })),
    }));
    for (const v of values) {
      const wire = zlibCodec.encode(v);
      expect(reusableCodec.decode(wire)).toEqual(zlibCodec.decode(wire));
    }
  });

  it('the default codec is one of the three and encodePayload uses it', () => {
    expect(codecs).toContain(payloadCodec);
    expect(decodePayload(encodePayload(sample))).toEqual(sample);
    expect(() => encodePayload(undefined)).toThrow(TypeError);
  });
});
