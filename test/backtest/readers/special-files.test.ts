/**
 * Data paths that are not regular files are refused by every reader before a byte is read: a FIFO with no writer
 * (opening it for reading would wait for one for good), a device, a directory.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader, readerFormats } from '../../../backtest/readers/index.js';
import { readEvents, tempFiles } from './read-helpers.js';

/** Options a format opens with (candle readers require their series). */
const opts = (format: string) => (format.startsWith('candles-') ? { params: { market: 'BTC-USD', interval: 'MINUTE_1' } } : { markets: ['BTC-USD'] });

const fifos: string[] = [];
afterEach(() => {
  // Without the refusal a reader would still be waiting in its open: a writer that comes and goes frees it.
  for (const f of fifos.splice(0)) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader waits on it (ENXIO): nothing to free
    }
  }
});

describe.skipIf(process.platform === 'win32')('a data path that is not a regular file', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('a FIFO with no writer fails at once in every format, saying what it is', { timeout: 20_000 }, async () => {
    const fifo = join(tmp.dir, 'book.csv');
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
    for (const format of readerFormats()) {
      await expect(readEvents(openReader(format, fifo, opts(format))), format).rejects.toThrow(`${fifo}:1: is a FIFO (named pipe), not a file`);
    }
  });

  it('a device and a directory are refused the same way', async () => {
    await expect(readEvents(openReader('tardis', '/dev/zero'))).rejects.toThrow('/dev/zero:1: is a device or socket, not a file');
    for (const format of readerFormats()) {
      await expect(readEvents(openReader(format, tmp.dir, opts(format))), format).rejects.toThrow(`${tmp.dir}:1: is a directory, not a file`);
    }
  });
});

describe('what a reader quotes of a file', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('writes control characters out (\\u001b), so a file cannot send escape sequences to the terminal', async () => {
    // A header that clears the screen, and a JSON line whose parser message quotes a NUL and an ESC.
    const csv = tmp.write('esc.csv', 'exchange\u001b[2J\u001b[H,symbol\n');
    await expect(readEvents(openReader('tardis', csv, {}))).rejects.toThrow(`${csv}:1: is not a Tardis incremental_book_L2 or trades header: exchange\\u001b[2J\\u001b[H,symbol`);
    const rec = tmp.write('esc.jsonl', '\u0000\u001b]0;owned\u0007\n');
    const err = await readEvents(openReader('rexbot', rec, {})).then(() => undefined, (e: unknown) => e as Error);
    expect(err?.message).toMatch(new RegExp(`^${rec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: `));
    expect(err?.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(err?.message).toContain('\\u001b]0;owned\\u0007');
  });
});
