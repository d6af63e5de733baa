/**
 * What the replay driver reads as a capture file: a regular file of at most MAX_REPLAY_FILE_BYTES, on disk and once
 * gunzipped. A gzip bomb (a few MB inflating to GBs) was inflated whole and `rexbot sim` died out of memory with a V8
 * stack trace, and a FIFO named as a capture held the loader for good; both are now an error naming the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_REPLAY_FILE_BYTES, loadReplayFiles } from '../../../src/sim/driver/replay-load.js';
import { repoPath } from '../../helpers/shared.js';

const WS = repoPath('test/fixtures/v3-capture/BITTREX.ws.1.0');
const HTTP = repoPath('test/fixtures/v3-replay/BITTREX.http.0.0');
const dir = mkdtempSync(join(tmpdir(), 'rexbot-replay-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = '{"format":"rexbot-recording","version":1}\n';
const HEARTBEAT = '{"t":1,"event":"heartbeat"}\n';
/** One gzip member of at least `mib` MiB of valid recording lines (heartbeat events, read and counted as ignored). */
const heartbeats = (mib: number) => gzipSync(HEARTBEAT.repeat(Math.ceil((mib * 1024 * 1024) / HEARTBEAT.length)), { level: 1 });

describe('replay capture files', () => {
  it('refuses a gzip bomb of valid lines over the limit, naming the file and the limit (a cut-off one too)', () => {
    // Header, then 4 MiB of valid lines: 16 KB on disk.
    const bomb = join(dir, 'bomb.jsonl.gz');
    const bytes = Buffer.concat([gzipSync(HEADER), heartbeats(4)]);
    writeFileSync(bomb, bytes);
    const limit = 1024 * 1024;
    const refused = `${bomb}: inflates to more than ${limit} bytes; a replay file is at most ${limit} gunzipped (is it the right file?)`;
    expect(() => loadReplayFiles({ recordings: [bomb] }, { maxFileBytes: limit })).toThrow(refused);
    // Without its gzip end (the cut-off path gunzips a second time), under either bad-line policy.
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 8));
    for (const onBadLine of ['fail', 'skip'] as const) {
      expect(() => loadReplayFiles({ recordings: [cut] }, { maxFileBytes: limit, onBadLine })).toThrow(refused.replace(bomb, cut));
    }
    // Under the limit the same file is a recording like any other.
    expect(loadReplayFiles({ recordings: [bomb] }, { maxFileBytes: 8 * 1024 * 1024 }).timeline.events).toEqual([]);
  });

  it('refuses a plain file over the limit without reading it, and a directory, naming them', () => {
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, HEADER);
    truncateSync(big, MAX_REPLAY_FILE_BYTES + 1); // sparse: nothing is written
    expect(() => loadReplayFiles({ ws: [big] })).toThrow(`${big}: is ${MAX_REPLAY_FILE_BYTES + 1} bytes; a replay file is at most ${MAX_REPLAY_FILE_BYTES} (is it the right file?)`);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    expect(() => loadReplayFiles({ http: [folder] })).toThrow(`${folder}: is a directory, not a file`);
  });

  it('refuses a FIFO at once instead of waiting for a writer forever', () => {
    const fifo = join(dir, 'rec.jsonl.gz');
    execFileSync('mkfifo', [fifo]);
    // In a child process, killed outright on timeout: the blocking read this replaced could not be interrupted here.
    const script = `import { loadReplayFiles } from ${JSON.stringify(repoPath('src/sim/driver/replay-load.ts'))};
      try { loadReplayFiles({ recordings: [process.argv[1]] }); } catch (e) { process.stdout.write(e.message); }`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, fifo], { cwd: repoPath(), encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(r.signal).toBeNull();
    expect(r.stdout).toBe(`${fifo}: is a FIFO (named pipe), not a file`);
  });

  it('loads a real capture as before, plain or gzipped, up to a limit of exactly its inflated size', () => {
    const plain = loadReplayFiles({ ws: [WS], http: [HTTP] }).timeline;
    expect(plain.events.length).toBeGreaterThan(1000);
    const ws = readFileSync(WS);
    const wsGz = join(dir, 'BITTREX.ws.1.0.gz');
    writeFileSync(wsGz, gzipSync(ws));
    expect(loadReplayFiles({ ws: [wsGz], http: [HTTP] }).timeline.events).toEqual(plain.events.map((e) => ({ ...e, source: { ...e.source, file: e.source.file === WS ? wsGz : e.source.file } })));
    expect(loadReplayFiles({ ws: [wsGz], http: [HTTP] }, { maxFileBytes: ws.length }).timeline.events.length).toBe(plain.events.length);
    expect(() => loadReplayFiles({ ws: [wsGz], http: [HTTP] }, { maxFileBytes: ws.length - 1 })).toThrow(`${wsGz}: inflates to more than ${ws.length - 1} bytes`);
  });

  it('rexbot sim on a bomb over the default limit says so and exits 1, instead of dying out of memory', () => {
    // 300 MiB of valid lines, 1.2 MB on disk: the same gzip member repeated (a multi-member gzip file is valid).
    const member = heartbeats(1);
    const bomb = join(dir, 'sim-bomb.jsonl.gz');
    writeFileSync(bomb, Buffer.concat([gzipSync(HEADER), ...Array.from({ length: 300 }, () => member)]));
    const config = join(dir, 'sim.yaml');
    writeFileSync(config, `driver: { kind: replay, recordings: [${JSON.stringify(bomb)}] }\n`);
    // A 256 MB heap, on which the whole text crashed the process (FATAL ERROR: ... JavaScript heap out of memory).
    const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=256` };
    const r = spawnSync(process.execPath, [repoPath('src/cli/bin.mjs'), 'sim', '--config', config], { cwd: repoPath(), env, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain(`rexbot sim: cannot start: ${bomb}: inflates to more than ${MAX_REPLAY_FILE_BYTES} bytes`);
    expect(r.status).toBe(1);
  }, 150_000);
});
