/**
 * `node --import tsx test/bench/read-all-child.ts <format> <path> [params json]`: read a file with a reader in a
 * fresh process and print `{"events":N,"maxRssMb":M}` — how the `backtest-read` bench measures peak memory
 * without the rest of the bench (generators, other readers) in the same heap.
 */
import { readAll } from '../../backtest/readers/index.js';

const [format, path, params] = process.argv.slice(2);
if (!format || !path) throw new Error('usage: read-all-child <format> <path> [params json]');
const events = await readAll(format, path, params ? { params: JSON.parse(params) as Record<string, unknown> } : {});
process.stdout.write(`${JSON.stringify({ events, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
