/**
 * `bot.name` names the journal file (and logs and metrics): a name with a path in it put the journal outside
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
