import { describe, expect, it } from 'vitest';
import { openReader, readAll, readerFactories, readerFormats } from '../../../backtest/readers/index.js';
import { readEvents } from './read-helpers.js';

describe('reader registry', () => {
  it('knows every format by name and refuses an unknown one, naming the known', () => {
    // Other work registers more formats (bittrex-v1-ws); these five are this module's.
    expect(readerFormats()).toEqual(expect.arrayContaining(['bittrex-v3-ws', 'candles-csv', 'candles-json', 'rexbot', 'tardis']));
    expect(readerFormats()).toEqual(Object.keys(readerFactories).sort());
    expect(() => openReader('csv', 'x')).toThrow(`unknown data format "csv"; known: ${readerFormats().join(', ')}`);
    expect(() => openReader('toString', 'x')).toThrow('unknown data format');
  });

  it('opens without reading: a missing file fails only when iterated', async () => {
    const reader = openReader('tardis', '/nonexistent/book.csv');
    expect(reader.source).toBe('/nonexistent/book.csv');
    expect(reader.summary()).toEqual({ events: 0, errors: 0, ignored: {} });
    await expect(readEvents(reader)).rejects.toThrow('/nonexistent/book.csv:1: no such file');
  });

  it('readAll counts the events of a file (the read-and-parse baseline)', async () => {
    expect(await readAll('rexbot', 'backtest/data/bittrex-v3-2021-06-14.jsonl.gz')).toBe(1205);
    expect(await readAll('rexbot', 'backtest/data/bittrex-v3-2021-06-14.jsonl.gz', { markets: ['BTC-EUR'] })).toBeLessThan(1205);
  });

  it('a reader is iterated once', async () => {
    const reader = openReader('rexbot', 'backtest/data/bittrex-v3-2021-06-14.jsonl.gz');
    await readEvents(reader);
    await expect(readEvents(reader)).rejects.toThrow('a reader is iterated once');
  });
});
