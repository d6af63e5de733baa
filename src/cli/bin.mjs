#!/usr/bin/env node
// The `rexbot` command. A backtest runs in a process of its own with the V8 settings it needs (relaunch.mjs says
// why; this process only waits for it). Everything else runs here: register tsx so the TypeScript sources (and
// users' TypeScript strategy plugins) load without a build step, then hand over to the real entry point, and end
// the process when the command is done (exit-when-done.ts).
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
  const code = await main(argv);
  // The command is done; a handle a strategy plugin left open must not keep its process from ending.
  const { exitWhenDone } = await import('./exit-when-done.ts');
  exitWhenDone(argv[0], code);
}
