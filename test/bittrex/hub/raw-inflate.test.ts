import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { INFLATE_INPUT_PADDING, InflateError, RawInflater } from '../../../src/bittrex/hub/raw-inflate.js';
import { Prng } from '../../sync/prng.js';

type Outcome = { ok: true; bytes: Buffer } | { ok: false; message: string };

/** Inflate with `inflater`, the padding after the data filled with noise (it must never matter). */
function ours(inflater: RawInflater, data: Uint8Array, rng: Prng): Outcome {
  const input = new Uint8Array(data.length + INFLATE_INPUT_PADDING);
  for (let i = data.length; i < input.length; i++) input[i] = rng.int(256);
  input.set(data);
  try {
    const n = inflater.inflate(input, data.length);
    return { ok: true, bytes: Buffer.from(inflater.output.subarray(0, n)) };
  } catch (e) {
    return { ok: false, message: e instanceof InflateError ? e.message : `not an InflateError: ${String(e)}` };
  }
}

function zlib(data: Uint8Array): Outcome {
  try {
    return { ok: true, bytes: inflateRawSync(data) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** Inputs of the kinds deflate treats differently: stored (noise), short codes, JSON, long matches, runs. */
function sample(rng: Prng): Buffer {
  const n = Math.floor(rng.next() ** 3 * 60_000);
  const b = Buffer.alloc(n);
  switch (rng.int(5)) {
    case 0:
      for (let i = 0; i < n; i++) b[i] = rng.int(256);
      return b;
    case 1:
      for (let i = 0; i < n; i++) b[i] = 97 + rng.int(4);
      return b;
    case 2: {
      const levels = Array.from({ length: Math.ceil(n / 40) }, () => ({ rate: (30_000 + rng.next()).toFixed(8), quantity: (rng.next() * 3).toFixed(8) }));
      return Buffer.from(JSON.stringify({ marketSymbol: 'BTC-USD', bidDeltas: levels }).slice(0, n));
    }
    case 3:
      for (let i = 0; i < n; i++) b[i] = i % 7 === 0 ? rng.int(256) : b[Math.max(0, i - 1 - rng.int(3))]!;
      return b;
    default:
      return b.fill(120);
  }
}

const STRATEGIES = [constants.Z_DEFAULT_STRATEGY, constants.Z_FILTERED, constants.Z_HUFFMAN_ONLY, constants.Z_RLE, constants.Z_FIXED];

describe('RawInflater', () => {
  it('inflates what zlib deflates, at every level and strategy, growing its output as needed', () => {
    const rng = new Prng(1);
    const inflater = new RawInflater({ initialOutput: 64 });
    const failures: string[] = [];
    for (let k = 0; k < 200; k++) {
      const src = sample(rng);
      const wire = deflateRawSync(src, { level: rng.int(10), strategy: STRATEGIES[rng.int(STRATEGIES.length)]!, memLevel: 1 + rng.int(9) });
      const got = ours(inflater, wire, rng);
      if (!got.ok || !got.bytes.equals(src)) failures.push(`sample ${k}: ${got.ok ? 'different bytes' : got.message}`);
    }
    expect(failures).toEqual([]);
  });

  it('accepts and rejects exactly what zlib does: truncated, bit-flipped and random streams', () => {
    const rng = new Prng(2);
    const inflater = new RawInflater({ initialOutput: 64 });
    let rejected = 0;
    const failures: string[] = [];
    const compare = (data: Uint8Array, label: string): void => {
      const a = ours(inflater, data, rng);
      const b = zlib(data);
      if (a.ok !== b.ok) failures.push(`${label}: ours ${a.ok ? 'ok' : a.message}, zlib ${b.ok ? 'ok' : b.message}`);
      else if (a.ok && b.ok && !a.bytes.equals(b.bytes)) failures.push(`${label}: different bytes`);
      if (!a.ok) rejected++;
    };
    for (let k = 0; k < 150; k++) {
      const wire = deflateRawSync(sample(rng), { level: rng.int(10), strategy: STRATEGIES[rng.int(STRATEGIES.length)]! });
      for (let m = 0; m < 20; m++) {
        if (m < 6) {
          compare(wire.subarray(0, rng.int(wire.length + 1)), `sample ${k} truncated`);
          continue;
        }
        const bad = Buffer.from(wire);
        for (let f = 1 + rng.int(3); f > 0 && bad.length > 0; f--) bad[rng.int(bad.length)]! ^= 1 << rng.int(8);
        compare(bad, `sample ${k} flipped`);
      }
    }
    for (let k = 0; k < 5_000; k++) {
      const noise = Buffer.alloc(rng.int(64));
      for (let i = 0; i < noise.length; i++) noise[i] = rng.int(256);
      compare(noise, `noise ${noise.toString('hex')}`);
    }
    expect(failures).toEqual([]);
    // The comparison only means something if both kinds of outcome occurred often.
    expect(rejected).toBeGreaterThan(1_000);
  });

  it('ignores bytes after the final block, as inflateRawSync does', () => {
    const wire = Buffer.concat([deflateRawSync(Buffer.from('{"a":1}')), Buffer.from('trailing')]);
    const got = ours(new RawInflater(), wire, new Prng(3));
    expect(got.ok && got.bytes.toString()).toBe('{"a":1}');
  });

  it('refuses output beyond its limit and input without padding', () => {
    const wire = deflateRawSync(Buffer.alloc(10_000));
    const input = new Uint8Array(wire.length + INFLATE_INPUT_PADDING);
    input.set(wire);
    expect(() => new RawInflater({ maxOutput: 4096 }).inflate(input, wire.length)).toThrow(/more than 4096 bytes/);
    expect(() => new RawInflater().inflate(wire, wire.length)).toThrow(RangeError);
  });
});
