import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import * as rexbot from '../src/index.js';

describe('public API', () => {
  it('exposes what plugins, embedders and client users need', () => {
    const strategy = rexbot.defineStrategy({
      name: 'noop',
      params: rexbot.z.strictObject({ size: rexbot.z.number().positive().default(1) }),
      setup: () => of<rexbot.Intent>({ kind: 'cancelAll', key: 'tidy' }),
    });
    expect(rexbot.isStrategyDefinition(strategy)).toBe(true);
    for (const name of ['createRestClient', 'createBittrexGateway', 'createSimEngine', 'startSimServer', 'startSimulator', 'runBot', 'Kernel', 'RiskEngine', 'Portfolio', 'dec', 'VirtualClock']) {
      expect(rexbot).toHaveProperty(name);
    }
    expect(rexbot.dec('0.1').plus('0.2').toString()).toBe('0.3');
  });
});
