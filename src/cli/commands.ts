/** The table of sub-commands. Each is loaded only when invoked. */
import { registerCommand } from './main.js';

registerCommand('version', 'print the version', async () => ({
  usage: 'usage: rexbot version',
  async run() {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    process.stdout.write(`rexbot ${pkg.version}\n`);
    return 0;
  },
}));

registerCommand('sim', 'run the exchange simulator (REST /v3, classic hub /signalr, core hub /hub, control /control)', async () => (await import('./sim-command.js')).simCommand);
registerCommand('run', 'run a bot from its YAML config (paper trading against the embedded simulator by default)', async () => (await import('./run-command.js')).runCommand);
registerCommand('validate', 'check a bot config and its strategy plugins without trading', async () => (await import('./validate-command.js')).validateCommand);
registerCommand('schema', 'print the JSON Schema of bot config files', async () => (await import('./schema-command.js')).schemaCommand);
registerCommand('record', 'record hub streams and their snapshots to a replayable .jsonl.gz file', async () => (await import('./record-command.js')).recordCommand);
registerCommand('backtest', 'run a bot config over recorded data on virtual time and write report.html (--band, --sweep)', async () => (await import('./backtest-command.js')).backtestCommand);
registerCommand('worker', 'take backtest sweep jobs from a Redis queue and run them (rexbot backtest --sweep ... --queue)', async () => (await import('./worker-command.js')).workerCommand);
registerCommand('report', "render a paper or live run's order journal as report.html (the backtest's report)", async () => (await import('./report-command.js')).reportCommand);
