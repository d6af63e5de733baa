import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Whether String.prototype has fast properties (what keeps `charCodeAt` inlined) is only visible to V8's natives
 * syntax, so each case runs in a child process: it loads what it is told, in that order, and says.
 */
const dir = mkdtempSync(join(tmpdir(), 'rexbot-strproto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const guard = pathToFileURL(join(process.cwd(), 'src/core/string-prototype-fast.ts')).href;
/** The project's ioredis, which subclasses String at import (its RESP3 VerbatimString). */
const ioredis = JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('ioredis')).href);
const wireJson = pathToFileURL(join(process.cwd(), 'src/core/wire-json.ts')).href;

function fastAfter(name: string, lines: string[]): boolean {
  const script = join(dir, `${name}.mjs`);
  writeFileSync(script, [...lines, `process.stdout.write(String(new Function('o', 'return %HasFastProperties(o)')(String.prototype)));`].join('\n'));
  return execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', script], { encoding: 'utf8' }) === 'true';
}

describe('String.prototype stays fast', () => {
  it('is made slow by a String subclass when nothing guards it (what the guard is for)', () => {
    expect(fastAfter('control', [`await import(${ioredis});`])).toBe(false);
  });

  it('after ioredis (which subclasses String) is loaded before the guard', () => {
    expect(fastAfter('before', [`await import(${ioredis});`, `await import(${JSON.stringify(guard)});`])).toBe(true);
  });

  it('after ioredis is loaded after the guard, and after more subclasses', () => {
    expect(fastAfter('after', [`await import(${JSON.stringify(guard)});`, `await import(${ioredis});`, 'class A extends String {}', 'Object.create(String.prototype);'])).toBe(true);
  });

  it('whenever the wire JSON reader is loaded (it imports the guard)', () => {
    expect(fastAfter('wire', [`await import(${ioredis});`, `await import(${JSON.stringify(wireJson)});`])).toBe(true);
  });
});
