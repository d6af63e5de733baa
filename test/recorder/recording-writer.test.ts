/**
 * A recording reaches its file as it goes: a recorder killed mid-run (SIGKILL, a lost terminal) leaves what it had
 * recorded up to its last second readable. Everything stayed in the compressor until close(): 10-12 s of recording
 * killed left a 10-byte file (found by an attack pass).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRecording } from '../../src/recorder/recording-writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('RecordingWriter', () => {
  it('flushes what was written to the file while still open (readable as a cut gzip stream)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-recw-'));
    dirs.push(dir);
    const file = join(dir, 'rec.jsonl.gz');
    const w = await openRecording(file, { kind: 'header', format: 'rexbot-recording', version: 1 } as never);
    w.writeLine('{"t":1623628800123,"name":"heartbeat"}');
    // What a reader of a killed recorder's file sees: the stream so far, without the gzip trailer.
    const sofar = () => gunzipSync(readFileSync(file), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    await vi.waitFor(() => expect(sofar()).toContain('"name":"heartbeat"'), { timeout: 10_000, interval: 50 });
    await w.close();
    expect(gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n')).toHaveLength(2);
  });
});
