/**
 * A newcomer's minimal paper config — config/paper.yaml without its `venue.simulator` line — runs the embedded
 * simulator on its defaults. Those defaults used to start the demo account with nothing, so the bot ran and every
 * order was denied INSUFFICIENT_BALANCE, and `rexbot validate` passed it ("7 intents"). Through the real CLI: `rexbot
 * run` places orders, and `rexbot validate` counts no denial; with a simulator whose account is empty on purpose
 * (`demo.balances: {}`), validate's ok line says the orders were denied and why.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { killAllChildren, startBotProcess } from '../crash/crash-processes.js';
import { repoPath } from '../helpers/shared.js';

const dir = mkdtempSync(join(tmpdir(), 'rexbot-paper-defaults-'));
afterAll(async () => {
  await killAllChildren();
  rmSync(dir, { recursive: true, force: true });
});

/** config/paper.yaml without `simulator:` (and `extra` venue lines), its journal in this test's folder, no ops port. */
function minimalPaperConfig(name: string, extraVenue = ''): string {
  const shipped = readFileSync(repoPath('config/paper.yaml'), 'utf8');
  const minimal = shipped
    .split('\n')
    .filter((l) => !/^\s+simulator:/.test(l))
    .join('\n')
    .replace(/^ {2}dir: .*$/m, `  dir: ${JSON.stringify(join(dir, name))}`)
    .replace(/^ {2}port: 0.*$/m, '  enabled: false');
  expect(minimal).not.toMatch(/simulator:/);
  expect(minimal).toContain('  kind: paper\n');
  const yaml = minimal.replace('  kind: paper\n', `  kind: paper\n${extraVenue}`);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

async function validate(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((stdout += c.toString()), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += c.toString()), true));
  try {
    return { code: await main(['validate', '--no-typecheck', file]), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('a paper config without venue.simulator', { timeout: 120_000 }, () => {
  it('rexbot run: the demo account is funded, so the market maker places its quotes (no INSUFFICIENT_BALANCE)', async () => {
    const bot = startBotProcess(minimalPaperConfig('run'), {});
    // The first order-related line decides: placed quotes, or a risk denial.
    const first = await bot.waitForLine((l) => l.msg === 'intent denied by risk' || / placed (BUY|SELL) /.test(String(l.msg)), 'a placement or a denial', 60_000);
    expect(first.msg, bot.tail()).toMatch(/^mm-btc BTC-USD: placed /);
    bot.kill('SIGINT');
    const exit = await bot.exited;
    expect(exit.code, bot.tail()).toBe(0);
    expect(bot.lines.filter((l) => l.msg === 'intent denied by risk')).toEqual([]);
    // It ended by itself: the in-process simulator's server and driver, the hub and REST clients were all closed.
    expect(bot.lines.filter((l) => String(l.msg).includes('still held open'))).toEqual([]);
  });

  it('rexbot validate: the rehearsal trades on the same funded account, and an empty one is said on the ok line', async () => {
    const funded = await validate(minimalPaperConfig('validate'));
    expect(funded.stderr).toBe('');
    expect(funded.code).toBe(0);
    expect(funded.stdout).toMatch(/: ok \(1 strategy, venue paper; 15 s simulated: mm-btc \d+ intents\)\n$/);

    writeFileSync(join(dir, 'empty-sim.yaml'), 'demo: { balances: {} }\n');
    const empty = await validate(minimalPaperConfig('validate-empty', '  simulator: empty-sim.yaml\n'));
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/: ok \(1 strategy, venue paper; 15 s simulated: mm-btc \d+ intents \(\d+ orders denied by risk: INSUFFICIENT_BALANCE\)\)\n$/);
  });
});
