/**
 * A recording reaches its file as it goes: a recorder killed mid-run (SIGKILL, a lost terminal) leaves what it had
 * recorded up to its last second readable. Everything stayed in the compressor until close(): 10-12 s of recording
 * killed left a 10-byte file (found by an attack pass). And a new recording never replaces an existing file unless
 * asked: a mistyped `--out` truncated yesterday's recording (found by an attack pass), and then only once the
 * recording is kept: a recorder whose start failed discards it, leaving no file it created and the file it was to
 * replace whole.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRecording, RecordingExistsError } from '../../src/recorder/recording-writer.js';

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

  it('refuses an existing file, leaving it as it was; replaces it only when asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-recw-'));
    dirs.push(dir);
    const file = join(dir, 'yesterday.jsonl.gz');
    writeFileSync(file, 'yesterday\'s recording');
    const header = { format: 'rexbot-recording', version: 1 } as never;
    const refused = await openRecording(file, header).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(RecordingExistsError);
    expect((refused as RecordingExistsError).message).toBe(`${file} already exists; not overwriting it`);
    expect((refused as RecordingExistsError).code).toBe('RECORDING_EXISTS');
    expect(readFileSync(file, 'utf8')).toBe('yesterday\'s recording');
    const w = await openRecording(file, header, { overwrite: true });
    expect(readFileSync(file, 'utf8')).toBe('yesterday\'s recording'); // replaced only once kept
    await w.close();
    expect(gunzipSync(readFileSync(file)).toString('utf8')).toBe('{"format":"rexbot-recording","version":1}\n');
    expect(readdirSync(dir)).toEqual(['yesterday.jsonl.gz']);
  });

  it('discard() removes the file it created, and only that: a file it was to replace, or that replaced it, stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-recw-'));
    dirs.push(dir);
    const header = { format: 'rexbot-recording', version: 1 } as never;
    const fresh = join(dir, 'fresh.jsonl.gz');
    const a = await openRecording(fresh, header);
    a.writeLine('{"t":1,"name":"heartbeat"}');
    await a.discard();
    expect(readdirSync(dir)).toEqual([]);

    // Overwriting: the existing file is left whole, the partial recording removed.
    const kept = join(dir, 'yesterday.jsonl.gz');
    writeFileSync(kept, 'yesterday\'s recording');
    const b = await openRecording(kept, header, { overwrite: true });
    await b.discard();
    expect(readdirSync(dir)).toEqual(['yesterday.jsonl.gz']);
    expect(readFileSync(kept, 'utf8')).toBe('yesterday\'s recording');

    // Someone else's file now at the path (ours removed and replaced meanwhile) is not ours to delete.
    const c = await openRecording(fresh, header);
    rmSync(fresh);
    writeFileSync(fresh, 'someone else\'s');
    await c.discard();
    expect(readFileSync(fresh, 'utf8')).toBe('someone else\'s');

    // Kept, a recording is no longer discarded: it is closed whole.
    rmSync(fresh);
    const d = await openRecording(fresh, header, { overwrite: true });
    await d.keep();
    await d.discard();
    expect(gunzipSync(readFileSync(fresh)).toString('utf8')).toBe('{"format":"rexbot-recording","version":1}\n');
  });
});
