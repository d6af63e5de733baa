/** "Did you mean": the closest known key for a typo, from the schema at the typo's place. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestKey, editDistance, knownKeysAt, unknownKeyMessage } from '../../src/runtime/config/did-you-mean.js';
import { parseYamlConfig, ConfigError } from '../../src/runtime/config/yaml-config.js';
import { botConfigSchema } from '../../src/runtime/bot-config.js';

describe('did you mean', () => {
  it('measures edits, a swap of neighbours counting as one', () => {
    expect(editDistance('spread', 'spread')).toBe(0);
    expect(editDistance('sprad', 'spread')).toBe(1);
    expect(editDistance('sperad', 'spread')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests only a key close enough to be a typo', () => {
    expect(closestKey('sprad', ['spread', 'levels', 'size'])).toBe('spread');
    expect(closestKey('Levles', ['spread', 'levels'])).toBe('levels');
    expect(closestKey('banana', ['spread', 'levels'])).toBeUndefined();
    expect(unknownKeyMessage('parms', ['params', 'markets'])).toBe('unknown field "parms"; did you mean "params"?');
    expect(unknownKeyMessage('zzz', ['params'])).toBe('unknown field "zzz"');
  });

  it('finds the keys at a path through arrays, defaults and unions', () => {
    expect(knownKeysAt(botConfigSchema, ['strategies', 0])).toEqual(expect.arrayContaining(['name', 'use', 'markets', 'params', 'enabled']));
    expect(knownKeysAt(botConfigSchema, ['venue'])).toEqual(expect.arrayContaining(['hubUrl', 'kind', 'restUrl', 'simulator', 'dialect', 'data']));
    expect(knownKeysAt(z.strictObject({ a: z.strictObject({ b: z.number() }).optional() }), ['a'])).toEqual(['b']);
  });

  it('a typo in a bot config names the key it probably meant, at its line', () => {
    const text = 'strategies:\n  - name: mm\n    use: market-maker\n    markets: [BTC-USD]\nshutdown:\n  cancelOpenOrder: true\n';
    let error: unknown;
    try {
      parseYamlConfig(text, 'bot.yaml', botConfigSchema, {});
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      { path: 'shutdown.cancelOpenOrder', message: 'unknown field "cancelOpenOrder"; did you mean "cancelOpenOrders"?', line: 6, col: 3 },
    ]);
  });
});
