/**
 * `rexbot sim --config <file>` with a bad config: every class of mistake is refused before anything starts, and the
 * message names the file, the line and column, and the field path (`sim.yaml:5:13 driver.markets[0]: ...`), as a
 * bot config's errors do. Through the CLI entry (`main`, what bin.mjs calls), in this process.
 */
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { repoPath } from '../helpers/shared.js';

const dir = mkdtempSync(join(tmpdir(), 'rexbot-sim-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `rexbot sim --config <dir>/sim.yaml` holding `yaml`: exit code and stderr. */
async function sim(yaml: string, extra: string[] = []): Promise<{ code: number; stderr: string; file: string }> {
  const file = join(dir, `sim-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true));
  try {
    const code = await main(['sim', '--config', file, ...extra]);
    return { code, stderr, file };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const recorded = repoPath('test/fixtures/v3-replay/BITTREX.0');

/** One case per class of mistake: the config text and the `line:col path: message` its error must say. */
const cases: { what: string; yaml: string; where: string; message: RegExp }[] = [
  { what: 'bad YAML', yaml: 'server:\n  port: [1, 2\nclock: system\n', where: '3:1 YAML syntax', message: /Flow sequence/ },
  { what: 'a key twice', yaml: 'clock: system\nclock: virtual\n', where: '2:1 YAML syntax', message: /Map keys must be unique/ },
  { what: 'a wrong type', yaml: 'server:\n  port: "abc"\n', where: '2:9 server.port', message: /expected number, received string/ },
  { what: 'an unknown key', yaml: 'exchange:\n  feez: 1\n', where: '2:3 exchange.feez', message: /unknown field "feez"; did you mean "fees"\?/ },
  { what: 'a number out of range', yaml: 'driver:\n  kind: synthetic\n  tickMs: -5\n', where: '3:11 driver.tickMs', message: /expected number to be >=10/ },
  { what: 'a fee written as a percentage', yaml: 'exchange:\n  fees: { maker: "5", taker: "0.1" }\n', where: '2:18 exchange.fees.maker', message: /must be a fraction below 1/ },
  { what: 'a negative fee', yaml: 'exchange:\n  fees: { maker: "0.1", taker: -0.1 }\n', where: '2:32 exchange.fees.taker', message: /must not be negative/ },
  { what: 'a start price that is no decimal', yaml: 'driver:\n  kind: synthetic\n  perMarket:\n    BTC-USD: { startPrice: abc }\n', where: '4:28 driver.perMarket.BTC-USD.startPrice', message: /not a decimal: "abc"/ },
  { what: 'a negative start price', yaml: 'driver:\n  kind: synthetic\n  perMarket:\n    BTC-USD: { startPrice: "-5" }\n', where: '4:28 driver.perMarket.BTC-USD.startPrice', message: /must be greater than zero/ },
  { what: 'lots the wrong way round', yaml: 'driver:\n  kind: synthetic\n  takers: { lots: [5, 1] }\n', where: '3:19 driver.takers.lots', message: /must be \[min, max\] with min <= max/ },
  { what: 'an unknown driver kind', yaml: 'driver:\n  kind: magic\n', where: '2:9 driver.kind', message: /Expected 'synthetic' \| 'replay' \| 'none'/ },
  { what: 'an unknown exchange market', yaml: 'exchange:\n  markets: [BTC-USD, DOGE-USD]\n', where: '2:22 exchange.markets[1]', message: /unknown market DOGE-USD; the simulator knows BTC-USD, / },
  {
    what: 'a driven market the exchange does not list',
    yaml: 'exchange:\n  markets: [BTC-USD]\ndriver:\n  kind: synthetic\n  markets: [ETH-USD]\n',
    where: '5:13 driver.markets[0]',
    message: /ETH-USD is not one of the exchange's markets \(BTC-USD\)/,
  },
  {
    what: 'settings for a market the driver does not drive',
    yaml: 'driver:\n  kind: synthetic\n  markets: [BTC-USD]\n  perMarket:\n    LTC-BTC: { takers: { ratePerMinute: 1 } }\n',
    where: '5:5 driver.perMarket.LTC-BTC',
    message: /LTC-BTC is not among driver.markets \(BTC-USD\): its settings would never be used/,
  },
  {
    what: 'a recorded market the file does not list',
    yaml: `exchange:\n  recordedMarkets: { file: ${JSON.stringify(recorded)}, symbols: [BTC-EUR, NOPE-BTC] }\n`,
    where: `2:${`  recordedMarkets: { file: ${JSON.stringify(recorded)}, symbols: [BTC-EUR, `.length + 1} exchange.recordedMarkets.symbols[1]`,
    message: /lists no market NOPE-BTC/,
  },
  { what: 'a recorded-markets file that does not exist', yaml: 'exchange:\n  recordedMarkets: { file: nope.txt, symbols: [BTC-EUR] }\n', where: '2:28 exchange.recordedMarkets.file', message: /nope\.txt does not exist/ },
  { what: 'a recorded-markets file that is not one', yaml: `exchange:\n  recordedMarkets: { file: ${JSON.stringify(repoPath('config/sim.yaml'))}, symbols: [BTC-EUR] }\n`, where: '2:28 exchange.recordedMarkets.file', message: /sim\.yaml:1: is not "<url> -> <ts>: <json>"/ },
  { what: 'a demo balance in a currency the exchange lacks', yaml: 'demo:\n  balances: { USD: "1", DOGE: "5" }\n', where: '2:25 demo.balances.DOGE', message: /unknown currency DOGE; the exchange lists ADA, BTC, / },
  { what: 'a capture file that does not exist', yaml: 'driver:\n  kind: replay\n  recordings: [rec.jsonl.gz]\n', where: '3:16 driver.recordings[0]', message: /rec\.jsonl\.gz does not exist/ },
  { what: 'a capture that is a folder', yaml: `driver:\n  kind: replay\n  ws: [${JSON.stringify(dir)}]\n  http: [${JSON.stringify(recorded)}]\n`, where: '3:8 driver.ws[0]', message: /is not a regular file/ },
];

describe('rexbot sim with a bad config', () => {
  it.each(cases)('$what: exit 2, file:line:col and field path', async ({ yaml, where, message }) => {
    const r = await sim(yaml);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`rexbot sim: invalid config ${r.file}:\n  ${r.file}:${where}: `);
    expect(r.stderr).toMatch(message);
  });

  it('lists every problem of the file, in its reading order', async () => {
    const r = await sim('demo:\n  balances: { DOGE: "5" }\nexchange:\n  markets: [NOPE-USD]\n');
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('  '));
    expect(lines.map((l) => l.slice(r.file.length + 3).split(':')[0])).toEqual(['2', '4']);
  });

  it('a port in use names the config line of server.port (and --port when it came from there)', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as { port: number }).port;
      const r = await sim(`server:\n  host: 127.0.0.1\n  port: ${port}\ndriver: { kind: none }\n`);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`rexbot sim: cannot start: ${r.file}:3:9 server.port: listen EADDRINUSE`);
      const cli = await sim('driver: { kind: none }\n', ['--port', String(port)]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain('rexbot sim: cannot start: --port: listen EADDRINUSE');
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
