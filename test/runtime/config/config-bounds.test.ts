/**
 * Bounds of config values. `bot.name` names the journal file (and logs and metrics): a name with a path in it put the journal outside
 * `journal.dir` (`../x`, `a/b`), and a NUL passed validation and failed at the journal's open with a stack trace.
 */
import { describe, expect, it } from 'vitest';
import { botConfigSchema } from '../../../src/runtime/bot-config.js';

describe('bot.name', () => {
  it('takes letters, digits, ".", "_", "-" and spaces, not starting with "."', () => {
    const bot = botConfigSchema.shape.bot;
    for (const bad of ['../x', 'a/b', 'a\\b', '.hidden', 'nul\0x', 'tab\tx', '']) expect(bot.safeParse({ name: bad }).success, JSON.stringify(bad)).toBe(false);
    for (const good of ['paper-demo', 'live_btc.2', 'my bot', 'Shutdown-SIGINT']) expect(bot.safeParse({ name: good }).success, good).toBe(true);
  });
});

describe('config amounts', () => {
  it('refuse an exponent past 40 either way (a billion-digit balance ran a backtest out of memory)', async () => {
    const { decimalSchema } = await import('../../../src/runtime/config/schema-helpers.js');
    for (const bad of ['1e999999999', '1e-999999999', '1e41']) {
      const r = decimalSchema.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message, bad).toMatch(/out of range/);
    }
    for (const good of ['100000', '0.00000001', '1e30', '0']) expect(decimalSchema.safeParse(good).success, good).toBe(true);
  });
});
