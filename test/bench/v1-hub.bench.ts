/**
 * v1.1 hub figures:
 * - `v1-ue-decode`: uE payloads decoded per second over the 1,366 real uE payloads of the two 2021 v1.1 captures
 *   (test/fixtures/v1-capture): base64 -> raw inflate -> JSON with rexbot's reusable inflater, against node:zlib
 *   (`inflateRawSync`, the baseline) in the same run; then the v1.1 client's whole decode (decodeV1Payload:
 *   inflate, lossless JSON so amounts stay exact, minified keys expanded, typed decode with Decimals and Dates).
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { parseClassicFrame } from '../../src/bittrex/hub/classic-frames.js';
import { inflatePayload } from '../../src/bittrex/hub/codec.js';
import { decodeV1Payload } from '../../src/wire/v1/hub/protocol.js';
import type { Bench, Figure } from './harness.js';

const DIR = new URL('../fixtures/v1-capture/', import.meta.url);

function capturedUePayloads(): string[] {
  const out: string[] = [];
  for (const file of ['BITTREX.ws.21.0', 'BITTREX-e15191.0']) {
    for (const line of readFileSync(new URL(file, DIR), 'utf8').split('\n')) {
      const m = /^\d+(?:\.\d+)?: (\{.*)$/s.exec(line);
      if (!m) continue;
      const frame = parseClassicFrame(m[1]!);
      if (frame.kind !== 'push') continue;
      for (const p of frame.messages) if (p.method === 'uE') out.push(p.args[0] as string);
    }
  }
  return out;
}

/** Payloads per second for `decode`, timed over whole passes of the list for at least `minMs`. */
function rate(decode: (p: string) => unknown, payloads: string[], minMs: number): number {
  const pass = () => {
    for (const p of payloads) decode(p);
  };
  const warmEnd = performance.now() + 300;
  while (performance.now() < warmEnd) pass();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    pass();
    n += payloads.length;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

export const benches: Bench[] = [
  {
    name: 'v1-ue-decode',
    async run(): Promise<Figure[]> {
      const payloads = capturedUePayloads();
      const zlib = rate((p) => JSON.parse(inflateRawSync(Buffer.from(p, 'base64')).toString('utf8')), payloads, 1500);
      const reusable = rate((p) => JSON.parse(inflatePayload(p)), payloads, 1500);
      const typed = rate((p) => decodeV1Payload('uE', p), payloads, 1500);
      return [
        { bench: 'v1-ue-decode', value: reusable, unit: 'msgs/s', baseline: zlib, note: `reusable inflate + JSON.parse; baseline node:zlib inflateRawSync + JSON.parse; ${payloads.length} real uE payloads` },
        { bench: 'v1-ue-decode/node-zlib', value: zlib, unit: 'msgs/s' },
        { bench: 'v1-ue-decode/typed', value: typed, unit: 'msgs/s', baseline: zlib, note: 'decodeV1Payload: inflate + lossless JSON + key expansion + typed decode (exact Decimals)' },
      ];
    },
  },
];
