#!/usr/bin/env node
// The `rexbot` command. Registers tsx so the TypeScript sources (and users' TypeScript strategy plugins) load
// without a build step, then hands over to the real entry point.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
