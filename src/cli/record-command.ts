/**
 * `rexbot record`: record hub channels (and the snapshots rule 4 needs) to a gzipped JSON-lines file that
 * backtests replay. The format is documented in src/recorder/recording-format.ts.
 *
 * ```
 * rexbot record --hub URL --rest URL --channels a,b,c --out FILE.jsonl.gz [--force] [--transport classic|core] [--duration S]
 * ```
 * An existing `--out` file is refused (a mistyped command must not destroy an earlier recording) unless `--force`,
 * which replaces it only once the recording has started. A start that fails (venue unreachable, channel refused)
 * leaves no file it created, and with `--force` the existing file as it was: the same command can simply be rerun.
 * The partial file a `--force` recorder killed before then left beside `--out` is removed (and named on stderr) by
 * the next `rexbot record` on that file, once its writer's process is gone.
 * Private channels (`balance`, `order`, `execution`, ...) authenticate with the key in `REXBOT_API_KEY` and
 * `REXBOT_API_SECRET` (environment, so the secret never shows in a process list). Without `--duration` the
 * recording runs until SIGINT or SIGTERM; either way the file is finished properly before the command exits.
 */
import { parseArgs } from 'node:util';
import { systemClock } from '../core/clock.js';
import { createRecorder, type RecorderStats } from '../recorder/recorder.js';
import { RecordingExistsError } from '../recorder/recording-writer.js';
import type { Command } from './main.js';

/** Environment variables holding the API key used for private channels. */
export const API_KEY_ENV = 'REXBOT_API_KEY';
export const API_SECRET_ENV = 'REXBOT_API_SECRET';

const USAGE = `usage: rexbot record --hub URL --rest URL --channels a,b,c --out FILE.jsonl.gz [--force] [--transport classic|core] [--duration S]

  --hub        hub URL (classic: .../signalr, core: .../hub)
  --rest       REST base URL with the version path (.../v3)
  --channels   comma-separated hub channels, e.g. orderbook_BTC-USD_25,trade_BTC-USD,balance
  --out        output file (gzipped JSON lines); an existing file is refused; none is left if the start fails
  --force      replace the --out file if it exists, once the recording has started
  --transport  hub wire flavour, classic (default) or core
  --duration   seconds to record; default until SIGINT/SIGTERM
private channels use ${API_KEY_ENV} and ${API_SECRET_ENV} from the environment`;

/** The parsed command line. */
export interface RecordArgs {
  hub: string;
  rest: string;
  channels: string[];
  out: string;
  /** Replace `out` if it exists (`--force`). */
  force: boolean;
  transport: 'classic' | 'core';
  durationMs: number | undefined;
}

/** Parse `args`; throws an Error whose message is fit to show the user. */
export function parseRecordArgs(args: string[]): RecordArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      hub: { type: 'string' },
      rest: { type: 'string' },
      channels: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      transport: { type: 'string', default: 'classic' },
      duration: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new Error(`unexpected argument ${positionals[0]}`);
  const need = (name: 'hub' | 'rest' | 'channels' | 'out'): string => {
    const v = values[name];
    if (!v) throw new Error(`--${name} is required`);
    return v;
  };
  const hub = need('hub');
  const rest = need('rest');
  const channels = need('channels').split(',').map((c) => c.trim()).filter((c) => c !== '');
  if (channels.length === 0) throw new Error('--channels names no channel');
  const transport = values.transport;
  if (transport !== 'classic' && transport !== 'core') throw new Error(`--transport must be classic or core, got ${transport}`);
  let durationMs: number | undefined;
  if (values.duration !== undefined) {
    const s = Number(values.duration);
    if (!Number.isFinite(s) || s <= 0) throw new Error(`--duration must be a positive number of seconds, got ${values.duration}`);
    durationMs = s * 1000;
  }
  return { hub, rest, channels, out: need('out'), force: values.force === true, transport, durationMs };
}

/** Run a recording described by `args` until the duration passes or `stop` resolves. */
export async function runRecording(a: RecordArgs, stop: Promise<unknown>, env: NodeJS.ProcessEnv = process.env): Promise<RecorderStats> {
  const apiKey = env[API_KEY_ENV];
  const apiSecret = env[API_SECRET_ENV];
  const recorder = createRecorder({
    hubUrl: a.hub,
    restUrl: a.rest,
    transport: a.transport,
    channels: a.channels,
    out: a.out,
    overwrite: a.force,
    credentials: apiKey && apiSecret ? { apiKey, apiSecret } : undefined,
    clock: systemClock,
  });
  recorder.errors$.subscribe((e) => process.stderr.write(`rexbot record: ${e.message}\n`));
  recorder.notices$.subscribe((n) => process.stderr.write(`rexbot record: ${n}\n`));
  await recorder.start();
  await Promise.race([stop, ...(a.durationMs !== undefined ? [systemClock.sleep(a.durationMs)] : [])]);
  return recorder.stop();
}

/** The `record` sub-command. */
export const recordCommand: Command = {
  usage: USAGE,
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    let parsed: RecordArgs;
    try {
      parsed = parseRecordArgs(args);
    } catch (e) {
      process.stderr.write(`rexbot record: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
    let onSignal: () => void = () => undefined;
    const signalled = new Promise<void>((resolve) => {
      onSignal = resolve;
    });
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    // A closed terminal too: the file is finished properly rather than cut.
    process.once('SIGHUP', onSignal);
    try {
      const stats = await runRecording(parsed, signalled);
      process.stderr.write(
        `rexbot record: ${stats.file}: ${stats.messages} messages, ${stats.snapshots} snapshots, ${stats.events} events` +
          `${stats.decodeErrors > 0 ? `, ${stats.decodeErrors} undecodable` : ''}\n`,
      );
      return 0;
    } catch (e) {
      const hint = e instanceof RecordingExistsError ? ' (give another --out, or add --force to replace it)' : '';
      process.stderr.write(`rexbot record: ${(e as Error).message}${hint}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
    }
  },
};
