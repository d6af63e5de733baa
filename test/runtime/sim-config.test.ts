import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config/yaml-config.js';
import { driverConfigOf, engineConfigOf, loadSimConfig, parseSimConfig } from '../../src/runtime/sim-config.js';
import { repoPath } from '../helpers/shared.js';

describe('simulator config', () => {
  it('an empty file is a working default simulator', () => {
    const cfg = parseSimConfig('');
    expect(cfg.server).toEqual({ host: '127.0.0.1', port: 0, callsPerMinute: 0, timestampWindowMs: 300_000, requestTimeoutMs: 30_000, maxConnections: 1024, hubBuffers: { perConnection: 16 * 1024 * 1024, total: 256 * 1024 * 1024 } });
    expect(cfg.driver.kind).toBe('synthetic');
    expect(engineConfigOf(cfg).markets.length).toBeGreaterThan(3);
  });

  it("funds the demo account by default with config/sim.yaml's balances; balances: {} leaves it empty", () => {
    const balances = (c: ReturnType<typeof parseSimConfig>) => Object.fromEntries(Object.entries(c.demo.balances).map(([k, v]) => [k, v.toFixed()]));
    // A paper bot without venue.simulator, and rexbot sim without a config, run on these: an empty default left
    // such a bot with every order denied INSUFFICIENT_BALANCE.
    expect(balances(parseSimConfig(''))).toEqual(balances(loadSimConfig(repoPath('config/sim.yaml'))));
    expect(balances(parseSimConfig(''))).toMatchObject({ USD: '100000', BTC: '2' });
    expect(balances(parseSimConfig('demo: { partner: false }'))).toMatchObject({ USD: '100000' });
    expect(balances(parseSimConfig('demo: { balances: {} }'))).toEqual({});
    expect(balances(parseSimConfig('demo: { balances: { USD: "5" } }'))).toEqual({ USD: '5' });
  });

  it('sets the price slippage limit of market orders, or switches it off with null', () => {
    expect(engineConfigOf(parseSimConfig('')).maxSlippage?.toString()).toBe('0.1');
    expect(engineConfigOf(parseSimConfig('exchange: { maxSlippage: "0.05" }')).maxSlippage?.toString()).toBe('0.05');
    expect(engineConfigOf(parseSimConfig('exchange: { maxSlippage: null }')).maxSlippage).toBeUndefined();
    expect(() => parseSimConfig('exchange: { maxSlippage: -1 }')).toThrow(/maxSlippage/);
  });

  it('loads the shipped config/sim.yaml', () => {
    const cfg = loadSimConfig(repoPath('config/sim.yaml'));
    expect(engineConfigOf(cfg).fees.maker.toString()).toBe('0.0035');
    expect(cfg.demo.balances.USD?.toString()).toBe('100000');
  });

  it('loads config/sim-replay.yaml with recorded markets and resolves capture paths against the file', () => {
    const cfg = loadSimConfig(repoPath('config/sim-replay.yaml'));
    const engine = engineConfigOf(cfg);
    expect(engine.markets.map((m) => m.symbol)).toEqual(expect.arrayContaining(['BTC-USD', 'BTC-EUR', 'DAWN-BTC']));
    expect(engine.currencies.map((c) => c.symbol)).toContain('EUR');
    expect(engine.dustMinValueSatoshi).toBe(0);
    const driver = driverConfigOf(cfg);
    expect(driver.kind).toBe('replay');
    if (driver.kind === 'replay') expect(driver.ws?.[0]).toBe(repoPath('test/fixtures/v3-capture/BITTREX.ws.1.0'));
  });

  it('names the line and field of a bad value and refuses unknown keys', () => {
    const bad = (text: string) => {
      try {
        parseSimConfig(text, 'sim.yaml');
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('expected an error');
    };
    expect(bad('server:\n  port: 70000\n')).toMatch(/sim\.yaml:2:9 server\.port/);
    expect(bad('driver:\n  kind: synthetic\n  tikMs: 5\n')).toMatch(/tikMs/);
    expect(bad('exchange:\n  fees: { maker: abc, taker: "0.1" }\n')).toMatch(/exchange\.fees\.maker: not a decimal/);
    expect(bad('clock: sundial\n')).toMatch(/clock/);
  });

  it('refuses markets the simulator does not know, naming file, line and field', () => {
    expect(() => parseSimConfig('exchange:\n  markets: [DOGE-USD]\n', 'sim.yaml')).toThrow(/sim\.yaml:2:13 exchange\.markets\[0\]: unknown market DOGE-USD/);
  });
});
