import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ArrayCutOffError, type JsonElement, readJsonArray } from '../../../backtest/readers/json-array.js';
import type { ReadSizes } from '../../../backtest/readers/line-source.js';
import { tempFiles } from './read-helpers.js';

/**
 * An array whose elements' places are known: each element's text, the offset of its first character, the offset
 * just past the character that completes it (its closing bracket; for a scalar, the comma or bracket after it) and
 * the line it starts on. Multi-byte characters inside strings (UTF-8 split between reads).
 */
function knownArray() {
  const values = ['{"a":1,"s":"é]},"}', '"x,\\"]"', '[1,[2,{"b":[]}]]', '-3.5e2', 'true', '{"c":"😀"}', 'null', '{}'];
  const seps = ['', ',\n  ', ' ,', ',\n', ',\r\n', ',', ',\n\n', ' , '];
  let text = '[\n ';
  const elements: { text: string; start: number; completeAt: number; line: number }[] = [];
  values.forEach((v, i) => {
    text += seps[i];
    const start = text.length;
    text += v;
    elements.push({ text: v, start, completeAt: text.length, line: text.slice(0, start).split('\n').length });
  });
  text += '\n]\n';
  // A scalar is complete only at the comma or bracket after it (`-3` may be `-35` once more comes), and its text runs
  // up to there (JSON.parse takes the spaces).
  for (const e of elements) {
    if ('[{'.includes(e.text[0]!)) continue;
    e.completeAt = text.slice(e.completeAt).search(/\S/) + e.completeAt + 1;
    e.text = text.slice(e.start, e.completeAt - 1);
  }
  return { text, elements };
}

/** What reading the first `n` characters of {@link knownArray}'s text must give: the elements complete in it, and the cut. */
function expectedAt(k: ReturnType<typeof knownArray>, n: number) {
  const complete = k.elements.filter((e) => e.completeAt <= n);
  const tornAt = k.elements.find((e) => e.start < n && e.completeAt > n);
  return {
    elements: complete.map((e) => ({ text: e.text, line: e.line })),
    cut: { complete: complete.length, lastLine: complete.at(-1)?.line ?? 0, torn: tornAt !== undefined, line: tornAt?.line ?? k.text.slice(0, n).split('\n').length },
  };
}

/** Read sizes that put read and piece boundaries everywhere, inside multi-byte characters too, and the real ones. */
const SIZES: (ReadSizes | undefined)[] = [{ read: 1, piece: 1 }, { read: 5, piece: 3 }, { read: 7, piece: 64 }, undefined];

describe('streaming JSON array scanner', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());
  const scan = async (text: string | Buffer, name = 'a.json') => {
    const out: JsonElement[] = [];
    for await (const chunk of readJsonArray(tmp.write(name, text))) out.push(...chunk);
    return out;
  };

  it('splits elements of any kind, with the line each starts on', async () => {
    expect(await scan('[1, 2 ,3]')).toEqual([{ text: '1', line: 1 }, { text: '2 ', line: 1 }, { text: '3', line: 1 }]);
    expect(await scan('[]')).toEqual([]);
    expect(await scan(' [ {"a":[1,{"b":"]}"}]},\n {"c":2}\n]\n')).toEqual([{ text: '{"a":[1,{"b":"]}"}]}', line: 1 }, { text: '{"c":2}', line: 2 }]);
    expect(await scan('["s\\"]", 3]')).toEqual([{ text: '"s\\"]"', line: 1 }, { text: '3', line: 1 }]);
  });

  it('skips a UTF-8 byte order mark before the array, plain and gzipped', async () => {
    // Left in, the mark made a candle file saved by a Windows editor "not a JSON array".
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"a":1},\n2]')]);
    for (const name of ['bom.json', 'bom.json.gz']) {
      expect(await scan(name.endsWith('.gz') ? gzipSync(body) : body, name)).toEqual([{ text: '{"a":1}', line: 1 }, { text: '2', line: 2 }]);
    }
  });

  it('reads the first array of an envelope object and skips the rest', async () => {
    expect(await scan('{"success":true,"message":"x[","result":[{"O":1},\n{"O":2}],"z":[9]}')).toEqual([{ text: '{"O":1}', line: 1 }, { text: '{"O":2}', line: 2 }]);
  });

  it('reads elements spanning chunk boundaries, plain and gzipped', async () => {
    const items = Array.from({ length: 30_000 }, (_, i) => ({ i, pad: 'x'.repeat(i % 50), s: 'q"]}\\' }));
    const text = `[\n${items.map((o) => JSON.stringify(o)).join(',\n')}\n]`;
    for (const name of ['big.json', 'big.json.gz']) {
      const els = await scan(text, name);
      expect(els.length).toBe(items.length);
      expect(els.every((e, i) => e.line === i + 2 && (JSON.parse(e.text) as { i: number }).i === i)).toBe(true);
    }
  });

  it('reads the same elements wherever reads end, multi-byte characters split between them', async () => {
    const k = knownArray();
    for (const name of ['k.json', 'k.json.gz']) {
      const path = tmp.write(name, k.text);
      for (const sizes of SIZES) {
        const out: JsonElement[] = [];
        for await (const chunk of readJsonArray(path, path, undefined, sizes)) out.push(...chunk);
        expect(out, `${name} ${JSON.stringify(sizes)}`).toEqual(k.elements.map((e) => ({ text: e.text, line: e.line })));
      }
    }
  });

  /** The elements read of `path`, and the cut it ends with (undefined: none). */
  const readCut = async (path: string, sizes?: ReadSizes) => {
    const elements: JsonElement[] = [];
    try {
      for await (const chunk of readJsonArray(path, path, undefined, sizes)) elements.push(...chunk);
      return { elements, cut: undefined };
    } catch (err) {
      if (!(err instanceof ArrayCutOffError)) throw err;
      const { complete, lastLine, torn } = err.cut;
      expect(err.line).toBe(err.cut.line);
      return { elements, cut: { complete, lastLine, torn, line: err.line }, what: err.cut.what };
    }
  };

  it('gives every element complete before a cut anywhere in the text, then says where it was cut', async () => {
    const k = knownArray();
    const bytes = Buffer.from(k.text);
    // Every cut the text can have (not the empty file, which holds no array); cut by bytes, so inside a character too.
    for (let at = 1; at < bytes.length - 2; at++) {
      const n = bytes.subarray(0, at).toString('utf8').replace(/\ufffd$/, '').length;
      const path = tmp.write('cut.json', bytes.subarray(0, at));
      for (const sizes of [SIZES[1], undefined]) {
        const got = await readCut(path, sizes);
        expect(got, `cut at byte ${at} ${JSON.stringify(sizes)}`).toEqual({ ...expectedAt(k, n), what: 'ends inside the array (cut off, as when its writer is killed)' });
      }
    }
  });

  it('gives every element complete before the cut of a gzip file cut off mid-stream (no gzip end), then says where', async () => {
    const k = knownArray();
    const whole = gzipSync(k.text);
    for (let at = 10; at < whole.length; at++) {
      const path = tmp.write('cut.json.gz', whole.subarray(0, at));
      // What the cut leaves: all the data zlib can inflate of it.
      const sofar = gunzipSync(whole.subarray(0, at), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const got = await readCut(path, SIZES[1]);
      expect(got, `cut at byte ${at}/${whole.length}`).toEqual({ ...expectedAt(k, sofar.length), what: 'cut off mid-stream (the gzip data stops without its end, as when its writer is killed)' });
    }
  });

  it('tells a cut in the terms of the array, under fail and skip', () => {
    const cut = { file: 'c.json.gz', what: 'ends inside the array (cut off, as when its writer is killed)', complete: 9, lastLine: 12, torn: true, line: 13 };
    const e = new ArrayCutOffError(cut, 'fail');
    expect(e.message).toBe('c.json.gz:13: ends inside the array (cut off, as when its writer is killed); element 9 (line 12) is the last complete one: onBadLine: skip reads up to it');
    expect(e.skipped().message).toBe('c.json.gz:13: ends inside the array (cut off, as when its writer is killed); read up to element 9 (line 12), the torn element 10 dropped');
    const none = new ArrayCutOffError({ ...cut, complete: 0, lastLine: 0, torn: false, line: 1 }, 'fail');
    expect(none.reason).toBe('ends inside the array (cut off, as when its writer is killed); not even element 1 is complete: onBadLine: skip reads up to it');
    expect(none.skipped().reason).toBe('ends inside the array (cut off, as when its writer is killed); no element read');
  });

  it('fails what is not an array, cut short, or followed by text, at the line', async () => {
    await expect(scan('[1,\n2')).rejects.toThrow(/a\.json:2: ends inside the array/);
    await expect(scan('{"a":1}')).rejects.toThrow(/a\.json:1: holds no JSON array/);
    await expect(scan('x')).rejects.toThrow(/a\.json:1: is not a JSON array/);
    await expect(scan('[{"a":1}]\n x')).rejects.toThrow(/a\.json:2: text after the end of the array/);
  });
});
