#!/usr/bin/env node
// The `rexbot` command. A backtest runs in a process of its own with the V8 settings it needs (relaunch.mjs says
// why; this process only waits for it). Everything else runs here: register tsx so the TypeScript sources (and
// users' TypeScript strategy plugins) load without a build step, then hand over to the real entry point.
import { fileURLToPath } from 'node:url';
import { endLike, relaunchFlags, runRelaunched, watchLauncher } from './relaunch.mjs';

const argv = process.argv.slice(2);
const flags = watchLauncher() ? undefined : relaunchFlags(argv);
if (flags) {
  endLike(await runRelaunched(flags, fileURLToPath(import.meta.url), argv));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('./main.ts');
  process.exitCode = await main(argv);
}
