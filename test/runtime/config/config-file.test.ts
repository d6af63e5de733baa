/**
 * What may be read as a config file: a regular file of at most MAX_CONFIG_BYTES. A FIFO held every command that
 * loads a config (validate, run, backtest, sim) for good, and a config of hundreds of MB was read whole and crashed
 * the process out of memory; both are now a ConfigError naming the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_CONFIG_BYTES } from '../../../src/runtime/config/config-file.js';
import { loadYamlConfig } from '../../../src/runtime/config/yaml-config.js';
import { loadSimConfig } from '../../../src/runtime/sim-config.js';
import { repoPath } from '../../helpers/shared.js';

const schema = z.strictObject({ name: z.string() });

describe('config files', () => {
  let dir: string | undefined;
  const tmp = () => (dir ??= mkdtempSync(join(tmpdir(), 'rexbot-config-file-')));
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('refuses a FIFO at once instead of waiting for a writer forever', () => {
    const fifo = join(tmp(), 'bot.yaml');
    execFileSync('mkfifo', [fifo]);
    // In a child process: the blocking read this replaced could not be interrupted in this one.
    const script = `import { loadYamlConfig } from ${JSON.stringify(repoPath('src/runtime/config/yaml-config.ts'))};
      import { z } from 'zod';
      try { loadYamlConfig(process.argv[1], z.object({})); } catch (e) { process.stdout.write(e.message); }`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, fifo], { cwd: repoPath(), encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(r.signal).toBeNull();
    expect(r.stdout).toBe(`invalid config ${fifo}:\n  ${fifo}: cannot read file: it is a FIFO (named pipe), not a file`);
  });

  it('refuses a file far larger than any config without reading it, and a directory, naming the file', () => {
    const big = join(tmp(), 'big.yaml');
    writeFileSync(big, 'name: a\n');
    truncateSync(big, MAX_CONFIG_BYTES + 1); // sparse: what follows the text is NUL bytes
    expect(() => loadYamlConfig(big, schema, {})).toThrow(`${big}: cannot read file: it is ${MAX_CONFIG_BYTES + 1} bytes; a config is at most ${MAX_CONFIG_BYTES} (is it the right file?)`);
    expect(() => loadSimConfig(big, {})).toThrow(`${big}: cannot read file: it is ${MAX_CONFIG_BYTES + 1} bytes`);
    const folder = join(tmp(), 'folder.yaml');
    mkdirSync(folder);
    expect(() => loadYamlConfig(folder, schema, {})).toThrow(`${folder}: cannot read file: it is a directory, not a file`);
    // A config of the largest size allowed is read.
    const ok = join(tmp(), 'ok.yaml');
    writeFileSync(ok, `name: a\n#${'x'.repeat(MAX_CONFIG_BYTES - 10)}\n`);
    expect(loadYamlConfig(ok, schema, {})).toEqual({ name: 'a' });
  });

  it('rexbot backtest refuses a FIFO or an oversized config too, naming it (its own read of the config hung or read it whole)', () => {
    const fifo = join(tmp(), 'bt.yaml');
    execFileSync('mkfifo', [fifo]);
    const big = join(tmp(), 'big.yaml');
    writeFileSync(big, 'bot: { name: big }\n');
    truncateSync(big, MAX_CONFIG_BYTES + 1);
    for (const [file, why] of [[fifo, 'is a FIFO (named pipe), not a file'], [big, `is ${MAX_CONFIG_BYTES + 1} bytes, more than ${MAX_CONFIG_BYTES}`]] as const) {
      // One process (no relaunch, see relaunch.mjs), killed outright on timeout: a backtest process stuck on the FIFO
      // would otherwise outlive it and hold the output pipes open.
      const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=32` };
      const r = spawnSync(process.execPath, [repoPath('src/cli/bin.mjs'), 'backtest', file, '--out', join(tmp(), 'out')], { cwd: repoPath(), env, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
      expect(r.signal, file).toBeNull();
      expect(r.stderr, file).toContain(`rexbot backtest: ${file}: ${why}`);
      expect(r.status, file).toBe(1);
    }
  });
});
