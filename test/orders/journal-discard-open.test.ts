/**
 * Opening a journal makes a new file's directory entry durable (a directory fsync), except on discardingJournalFs:
 * a backtest's journal is never read and is deleted when the run ends, and that fsync cost a backtest ~200 ms when
 * the disk still held the recording it had just written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const synced = vi.hoisted(() => [] as string[]);
vi.mock('../../src/orders/journal-fs.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/orders/journal-fs.js')>();
  return { ...real, syncDirectory: (path: string) => (synced.push(path), real.syncDirectory(path)) };
});

const { Journal } = await import('../../src/orders/journal.js');
const { discardingJournalFs } = await import('../../src/orders/journal-appender.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-open-'));
  synced.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Journal.open and the directory fsync', () => {
  it('makes a new journal file durable on the real disk', () => {
    const path = join(dir, 'disk.journal');
    Journal.open(path, { fsync: false }).close();
    expect(synced).toEqual([path]);
  });

  it('leaves it out for a discarding journal, whose file nothing reads', () => {
    Journal.open(join(dir, 'discard.journal'), { fsync: false, fs: discardingJournalFs }).close();
    expect(synced).toEqual([]);
  });
});
