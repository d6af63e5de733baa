import { afterEach, describe, expect, it } from 'vitest';
import { type JsonElement, readJsonArray } from '../../../backtest/readers/json-array.js';
import { tempFiles } from './read-helpers.js';

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

  it('fails what is not an array, cut short, or followed by text, at the line', async () => {
    await expect(scan('[1,\n2')).rejects.toThrow(/a\.json:2: ends inside the array/);
    await expect(scan('{"a":1}')).rejects.toThrow(/a\.json:1: holds no JSON array/);
    await expect(scan('x')).rejects.toThrow(/a\.json:1: is not a JSON array/);
    await expect(scan('[{"a":1}]\n x')).rejects.toThrow(/a\.json:2: text after the end of the array/);
  });
});
