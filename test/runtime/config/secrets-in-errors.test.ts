/**
 * Secrets never appear in an error: a credentials file that is not JSON was reported with JSON.parse's message,
 * which quotes the text around the mistake (ten characters of the secret); a Redis URL with a password was echoed
 * whole by `rexbot worker --redis` (found by an attack pass).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redisOptions } from '../../../backtest/sweep/queue-connection.js';
import { resolveCredentials } from '../../../src/runtime/bot-config.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('errors about secrets', () => {
  it('a credentials file that is not JSON is said so without quoting it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-secrets-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'creds.json'), '{"apiKey": "k1", "apiSecret": S3cr3tS3cr3tS3cr3t}');
    let message = '';
    try {
      resolveCredentials({ credentials: { file: 'creds.json' }, file: join(dir, 'bot.yaml') } as never);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/creds\.json is not valid JSON/);
    expect(message).not.toMatch(/S3cr/);
  });

  it('a Redis URL with a password is never echoed with it', () => {
    for (const url of ['redis://u:S3cretPW@127.0.0.1:6379/abc', 'http://u:S3cretPW@127.0.0.1:6379', 'redis://u:S3cretPW@[bad']) {
      let message = '';
      try {
        redisOptions(url);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).not.toBe('');
      expect(message, url).not.toMatch(/S3cretPW/);
    }
  });
});
