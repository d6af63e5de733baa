/** Shared helpers of the reader tests: read a reader to the end, and temp files removed after each test. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { MarketDataReader, MarketEvent, ReaderSummary } from '../../../backtest/readers/index.js';

/** Every event of a reader, and its summary once done. */
export async function readEvents(reader: MarketDataReader): Promise<{ events: MarketEvent[]; summary: ReaderSummary }> {
  const events: MarketEvent[] = [];
  for await (const batch of reader.batches()) events.push(...batch);
  return { events, summary: reader.summary() };
}

/** Count events by kind. */
export function kinds(events: readonly MarketEvent[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) out[e.kind] = (out[e.kind] ?? 0) + 1;
  return out;
}

/**
 * Temp files: `write` creates a file (gzipped when the name ends in .gz) in a directory made on first use;
 * `cleanup` (call it in afterEach) removes the directory, and the next `write` makes a new one.
 */
export function tempFiles(): { readonly dir: string; write(name: string, text: string | Buffer): string; cleanup(): void } {
  let dir: string | undefined;
  const ensure = () => (dir ??= mkdtempSync(join(tmpdir(), 'rexbot-readers-')));
  return {
    get dir() {
      return ensure();
    },
    write(name, text) {
      const path = join(ensure(), name);
      writeFileSync(path, name.endsWith('.gz') && typeof text === 'string' ? gzipSync(text) : text);
      return path;
    },
    cleanup() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    },
  };
}
