/**
 * `rexbot sim [--config config/sim.yaml] [--port N]`: run the exchange simulator until SIGINT/SIGTERM. When ready
 * it prints ONE line of JSON on stdout (`{"ready":true,"rest":"http://127.0.0.1:PORT/v3","hub":...}`); logs go to
 * stderr.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError } from '../runtime/config/yaml-config.js';
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
    try {
      const file = values.config ?? DEFAULT_CONFIG;
      cfg = values.config || existsSync(file) ? loadSimConfig(file) : parseSimConfig('');
    } catch (err) {
      process.stderr.write(`rexbot sim: ${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
      return 2;
    }
    let sim;
    try {
      sim = await startSimulator(cfg, { ...(port !== undefined ? { port } : {}), onInternalError: (err, where) => log.error({ err, where }, 'simulator internal error') });
    } catch (err) {
      process.stderr.write(`rexbot sim: cannot start: ${(err as Error).message}\n`);
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
