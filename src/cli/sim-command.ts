/**
 * `rexbot sim [--config config/sim.yaml] [--port N]`: run the exchange simulator until SIGINT/SIGTERM. When ready
 * it prints ONE line of JSON on stdout (`{"ready":true,"rest":"http://127.0.0.1:PORT/v3","hub":...}`); logs go to
 * stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, formatIssue, yamlLocator } from '../runtime/config/yaml-config.js';
import { loadSimConfig, parseSimConfig } from '../runtime/sim-config.js';
import { startSimulator } from '../runtime/simulator.js';
import { createLogger } from '../telemetry/logger.js';
import type { Command } from './main.js';

const DEFAULT_CONFIG = 'config/sim.yaml';

/** The `sim` command. */
export const simCommand: Command = {
  usage: 'usage: rexbot sim [--config config/sim.yaml] [--port N]\n\nRun the exchange simulator until Ctrl-C; prints one line of JSON (URLs, demo key) when ready.',
  async run(args) {
    let values: { config?: string | undefined; port?: string | undefined; help?: boolean | undefined };
    try {
      ({ values } = parseArgs({ args, options: { config: { type: 'string', short: 'c' }, port: { type: 'string', short: 'p' }, help: { type: 'boolean', short: 'h' } } }));
    } catch (err) {
      process.stderr.write(`rexbot sim: ${(err as Error).message}\n`);
      return 2;
    }
    if (values.help) {
      process.stdout.write('usage: rexbot sim [--config config/sim.yaml] [--port N]\n');
      return 0;
    }
    const log = createLogger({ name: 'rexbot-sim', destination: process.stderr });
    let port: number | undefined;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        process.stderr.write(`rexbot sim: --port must be 0..65535, got ${values.port}\n`);
        return 2;
      }
    }
    let cfg;
    const file = values.config ?? DEFAULT_CONFIG;
    const fromFile = values.config !== undefined || existsSync(file);
    try {
      cfg = fromFile ? loadSimConfig(file) : parseSimConfig('');
    } catch (err) {
      process.stderr.write(`rexbot sim: ${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
      return 2;
    }
    let sim;
    try {
      sim = await startSimulator(cfg, { ...(port !== undefined ? { port } : {}), onInternalError: (err, where) => log.error({ err, where }, 'simulator internal error') });
    } catch (err) {
      process.stderr.write(`rexbot sim: cannot start: ${listenField(err, fromFile ? file : undefined, port !== undefined)}${(err as Error).message}\n`);
      return 1;
    }
    process.stdout.write(`${sim.readyLine()}\n`);
    log.info({ rest: sim.server.restUrl, driver: sim.driver.kind }, 'simulator ready');
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    log.info('stopping simulator');
    await sim.stop();
    return 0;
  },
};

/**
 * Where the setting behind a failed listen is (`config/sim.yaml:5:9 server.port: `, or `--port: `), or '' for any
 * other error: the address in use or the host that does not resolve came from the config or the command line.
 */
function listenField(err: unknown, file: string | undefined, portFromCli: boolean): string {
  const code = (err as NodeJS.ErrnoException).code;
  const field = code === 'EADDRINUSE' || code === 'EACCES' ? 'port' : code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN' ? 'host' : undefined;
  if (field === undefined) return '';
  if (field === 'port' && portFromCli) return '--port: ';
  if (file === undefined) return '';
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // Read a moment ago; gone now, the field is still named, without a line.
  }
  return formatIssue(file, { path: `server.${field}`, message: '', ...yamlLocator(text)(['server', field]) });
}
