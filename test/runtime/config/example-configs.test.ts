/**
 * The shipped configs are valid as written: config/live.example.yaml (the README's live venue) loads with its
 * secrets taken from the environment and refuses to load without them; config/paper.yaml and config/sim.yaml load.
 */
import { describe, expect, it } from 'vitest';
import { loadBotConfig, resolveCredentials } from '../../../src/runtime/bot-config.js';
import { loadSimConfig } from '../../../src/runtime/sim-config.js';
import { repoPath } from '../../helpers/shared.js';

describe('shipped configs', () => {
  it('live.example.yaml takes its key and secret from the environment', () => {
    const cfg = loadBotConfig(repoPath('config', 'live.example.yaml'), { REXBOT_API_KEY: 'k-from-env', REXBOT_API_SECRET: 's-from-env' });
    expect(cfg.venue).toEqual({ kind: 'live', dialect: 'v3', restUrl: 'https://api.bittrex.com/v3', hubUrl: 'https://socket-v3.bittrex.com/signalr' });
    expect(resolveCredentials(cfg)).toEqual({ apiKey: 'k-from-env', apiSecret: 's-from-env' });
    expect(cfg.strategies.map((s) => s.use)).toEqual(['market-maker']);
  });

  it('live.example.yaml without the environment fails, naming the variable', () => {
    expect(() => loadBotConfig(repoPath('config', 'live.example.yaml'), {})).toThrow(/REXBOT_API_KEY/);
  });

  it('paper.yaml and sim.yaml load', () => {
    expect(loadBotConfig(repoPath('config', 'paper.yaml'), {}).venue.kind).toBe('paper');
    const sim = loadSimConfig(repoPath('config', 'sim.yaml'), {});
    expect(sim.driver).toMatchObject({ kind: 'synthetic', historyHours: 24, perMarket: { 'ETH-BTC': { takers: { ratePerMinute: 10 } } } });
  });
});
