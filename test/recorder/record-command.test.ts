/**
 * `rexbot record`: argument errors are usage errors (exit 2) with the reason; a run against the simulator for a
 * given duration writes a finished, readable recording and exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseRecordArgs } from '../../src/cli/record-command.js';
import { main } from '../../src/cli/main.js';
import { partialRecordingPath } from '../../src/recorder/partial-recordings.js';
import type { RecordingRecord } from '../../src/recorder/recording-format.js';
import { readRecording } from '../../src/recorder/recording-reader.js';
import { MARKET, startWorld, Trader, type SimWorld } from '../streams/stream-harness.js';

let dir: string;
let world: SimWorld | undefined;
let stderr: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-cli-'));
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await world?.close();
  world = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('parseRecordArgs', () => {
  const ok = ['--hub', 'http://h/signalr', '--rest', 'http://h/v3', '--channels', 'trade_BTC-USD, orderbook_BTC-USD_25', '--out', 'x.jsonl.gz'];

  it('reads every option, with classic and no duration by default', () => {
    expect(parseRecordArgs(ok)).toEqual({
      hub: 'http://h/signalr', rest: 'http://h/v3', channels: ['trade_BTC-USD', 'orderbook_BTC-USD_25'], out: 'x.jsonl.gz',
      transport: 'classic', durationMs: undefined, force: false,
    });
    expect(parseRecordArgs([...ok, '--force'])).toMatchObject({ force: true });
    // Beyond the ~24.8 days a Node timer takes: waited in steps (test/core/system-clock.test.ts), not at once.
    expect(parseRecordArgs([...ok, '--duration', '3000000'])).toMatchObject({ durationMs: 3_000_000_000 });
    expect(parseRecordArgs([...ok, '--transport', 'core', '--duration', '1.5'])).toMatchObject({ transport: 'core', durationMs: 1500 });
  });

  it('says what is wrong', () => {
    expect(() => parseRecordArgs(ok.slice(2))).toThrow('--hub is required');
    expect(() => parseRecordArgs([...ok, '--transport', 'udp'])).toThrow('--transport must be classic or core, got udp');
    expect(() => parseRecordArgs([...ok, '--duration=-3'])).toThrow('--duration must be a positive number of seconds');
    expect(() => parseRecordArgs([...ok.slice(0, 4), '--channels', ' , ', '--out', 'x'])).toThrow('--channels names no channel');
    expect(() => parseRecordArgs([...ok, 'extra'])).toThrow('unexpected argument extra');
  });
});

describe('rexbot record', () => {
  it('exits 2 with the usage on a bad command line', async () => {
    expect(await main(['record', '--hub', 'x'])).toBe(2);
    expect(stderr.join('')).toMatch(/--rest is required[\s\S]*usage: rexbot record/);
  });

  it('records for --duration seconds and leaves a finished recording', async () => {
    world = await startWorld();
    const trader = new Trader(world, 5);
    trader.seedBook();
    const out = join(dir, 'cli.jsonl.gz');
    const channels = `orderbook_${MARKET}_25,trade_${MARKET}`;
    const running = main(['record', '--hub', world.sim.coreHubUrl, '--rest', world.sim.restUrl, '--transport', 'core', '--channels', channels, '--out', out, '--duration', '0.5']);
    await trader.run(20);
    expect(await running).toBe(0);
    const summary = /cli\.jsonl\.gz: (\d+) messages, (\d+) snapshots/.exec(stderr.join(''));
    expect(summary).not.toBeNull();
    // The file is finished (read to its end) and holds what the summary says. Whether the book's first snapshot
    // came back within the 0.5 s depends on the machine's speed, so that is not asserted here: a recording that
    // waits for its snapshots is test/recorder/replay-recording.test.ts's.
    const records: RecordingRecord[] = [];
    for await (const r of readRecording(out)) records.push(r);
    expect(records[0]).toMatchObject({ kind: 'header', header: { channels: channels.split(','), source: { transport: 'core' } } });
    expect(records.filter((r) => r.kind === 'message')).toHaveLength(Number(summary![1]));
    expect(records.filter((r) => r.kind === 'snapshot')).toHaveLength(Number(summary![2]));
    for (const r of records) if (r.kind === 'snapshot') expect(channels.split(',')).toContain(r.channel);
  });

  it('exits 1 naming the problem when the hub cannot be reached, leaving no file: the same command can run again', async () => {
    // It left a header-only file, and the same command run again was refused: "already exists".
    const out = join(dir, 'fail.jsonl.gz');
    const command = ['record', '--hub', 'http://127.0.0.1:9/signalr', '--rest', 'http://127.0.0.1:9/v3', '--channels', 'trade_BTC-USD', '--out', out];
    expect(await main(command)).toBe(1);
    expect(stderr.join('')).toMatch(/rexbot record: .*ECONNREFUSED/);
    expect(readdirSync(dir)).toEqual([]);
    stderr.length = 0;
    expect(await main(command)).toBe(1);
    expect(stderr.join('')).toMatch(/rexbot record: .*ECONNREFUSED/);
    expect(stderr.join('')).not.toContain('already exists');
  });

  it('with --force, a start that fails leaves the existing --out file as it was', async () => {
    // --force truncated the file when it opened it: a venue that then could not be reached cost yesterday's recording.
    const out = join(dir, 'yesterday.jsonl.gz');
    writeFileSync(out, 'yesterday');
    const code = await main(['record', '--hub', 'http://127.0.0.1:9/signalr', '--rest', 'http://127.0.0.1:9/v3', '--channels', 'trade_BTC-USD', '--out', out, '--force']);
    expect(code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('yesterday');
    expect(readdirSync(dir)).toEqual(['yesterday.jsonl.gz']); // nor a partial recording beside it
  });

  it('refuses an existing --out file, naming it, and leaves it as it was', async () => {
    const out = join(dir, 'yesterday.jsonl.gz');
    writeFileSync(out, 'yesterday');
    // The file is opened before the hub is dialled: this never reaches the (unreachable) hub.
    const code = await main(['record', '--hub', 'http://127.0.0.1:9/signalr', '--rest', 'http://127.0.0.1:9/v3', '--channels', 'trade_BTC-USD', '--out', out]);
    expect(code).toBe(1);
    expect(stderr.join('')).toContain(`rexbot record: ${out} already exists; not overwriting it (give another --out, or add --force to replace it)`);
    expect(readFileSync(out, 'utf8')).toBe('yesterday');
  });

  it('replaces an existing --out file with --force', async () => {
    world = await startWorld();
    const out = join(dir, 'again.jsonl.gz');
    writeFileSync(out, 'yesterday');
    const running = main(['record', '--hub', world.sim.coreHubUrl, '--rest', world.sim.restUrl, '--transport', 'core', '--channels', `trade_${MARKET}`, '--out', out, '--force', '--duration', '0.2']);
    expect(await running).toBe(0);
    const records: RecordingRecord[] = [];
    for await (const r of readRecording(out)) records.push(r);
    expect(records[0]).toMatchObject({ kind: 'header', header: { channels: [`trade_${MARKET}`] } });
  });

  it('removes the partial file a killed --force recorder left, saying so, and keeps one whose writer is alive', async () => {
    // A recorder SIGKILLed before its recording replaced the old file left `<file>.<hex>.partial` for good, silently.
    world = await startWorld();
    const out = join(dir, 'again.jsonl.gz');
    writeFileSync(out, 'yesterday');
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    const deadPartial = partialRecordingPath(out, child.pid!);
    const livePartial = partialRecordingPath(out, process.pid);
    writeFileSync(deadPartial, 'killed');
    writeFileSync(livePartial, 'still being written');
    const code = await main(['record', '--hub', world.sim.coreHubUrl, '--rest', world.sim.restUrl, '--transport', 'core', '--channels', `trade_${MARKET}`, '--out', out, '--force', '--duration', '0.2']);
    expect(code).toBe(0);
    const said = stderr.join('').split('\n').filter((l) => l.includes('partial'));
    expect(said).toEqual([`rexbot record: removed a partial recording of ${out} left by a recorder no longer running: ${deadPartial}`]);
    expect(readdirSync(dir).sort()).toEqual([basename(out), basename(livePartial)].sort());
    expect(readFileSync(livePartial, 'utf8')).toBe('still being written');
  });
});
