import { Decimal } from '../../src/core/decimal.js';
import type { DestinationStream } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import {
  createLogger,
  isSecretKey,
  LOG_LEVEL_ENV,
  REDACT_PATHS,
  redactSecrets,
  registerSecret,
} from '../../src/telemetry/logger.js';

const API_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const API_SECRET = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f';
const SIGNATURE = '9c'.repeat(64);

/** An in-memory pino destination: every line written, as text. */
function memory() {
  const lines: string[] = [];
  const destination: DestinationStream = { write: (s: string) => void lines.push(s) };
  return {
    destination,
    lines,
    text: () => lines.join(''),
    json: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

function expectClean(text: string, ...secrets: string[]) {
  for (const s of secrets) expect(text).not.toContain(s);
}

describe('createLogger', () => {
  const savedLevel = process.env[LOG_LEVEL_ENV];
  afterEach(() => {
    if (savedLevel === undefined) delete process.env[LOG_LEVEL_ENV];
    else process.env[LOG_LEVEL_ENV] = savedLevel;
  });

  it('stamps lines with the given clock (simulated time in a backtest), children included', async () => {
    const clock = new VirtualClock(Date.UTC(2021, 0, 1));
    const out = memory();
    const log = createLogger({ level: 'info', destination: out.destination, clock });
    log.info('first');
    await clock.advance(1500);
    log.child({ component: 'orders' }).info('second');
    expect(out.json().map((l) => [l.msg, l.time])).toEqual([
      ['first', Date.UTC(2021, 0, 1)],
      ['second', Date.UTC(2021, 0, 1) + 1500],
    ]);
  });

  it('censors secret fields at the top level and in request headers, keeping the other fields', () => {
    const out = memory();
    const log = createLogger({ name: 'rest', destination: out.destination });
    log.info(
      {
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        signature: SIGNATURE,
        'Api-Key': API_KEY,
        'Api-Signature': SIGNATURE,
        headers: { 'api-key': API_KEY, 'api-signature': SIGNATURE, 'api-timestamp': '1623628800000' },
        req: { method: 'POST', headers: { 'Api-Key': API_KEY, 'Api-Signature': SIGNATURE } },
        request: { headers: { 'api-key': API_KEY, 'api-signature': SIGNATURE }, path: '/v3/orders' },
        orderId: 'e606d53c-8d70-11e3-94b5-425861b86ab6',
        nextPageToken: 'page-2',
      },
      'sent',
    );
    expectClean(out.text(), API_KEY, API_SECRET, SIGNATURE);
    const [line] = out.json();
    expect(line).toMatchObject({
      name: 'rest',
      msg: 'sent',
      apiKey: '[redacted]',
      'Api-Signature': '[redacted]',
      headers: { 'api-key': '[redacted]', 'api-timestamp': '1623628800000' },
      req: { method: 'POST', headers: { 'Api-Key': '[redacted]' } },
      request: { path: '/v3/orders' },
      orderId: 'e606d53c-8d70-11e3-94b5-425861b86ab6',
      nextPageToken: 'page-2',
    });
  });

  it('censors secrets nested at any depth, in arrays, in credentials and in class instances', () => {
    const out = memory();
    const log = createLogger({ destination: out.destination });
    class Client {
      apiSecret = API_SECRET;
      baseUrl = 'https://api.example/v3';
    }
    log.warn({
      config: { accounts: [{ name: 'main', auth: { apiSecret: API_SECRET, api_key: API_KEY, password: 'hunter22' } }] },
      credentials: { apiKey: API_KEY, apiSecret: API_SECRET },
      deep: { a: { b: { c: { d: { token: 'tok-123456', Authorization: `Bearer ${SIGNATURE}` } } } } },
      client: new Client(),
      price: new Decimal('0.00010000'),
    });
    expectClean(out.text(), API_KEY, API_SECRET, SIGNATURE, 'hunter22', 'tok-123456');
    const [line] = out.json();
    expect(line).toMatchObject({
      config: { accounts: [{ name: 'main', auth: { apiSecret: '[redacted]', password: '[redacted]' } }] },
      credentials: '[redacted]',
      client: { apiSecret: '[redacted]', baseUrl: 'https://api.example/v3' },
      price: '0.0001',
    });
  });

  it('scrubs registered secret values from messages, interpolations, error messages, causes and bindings', () => {
    registerSecret(API_KEY);
    registerSecret(API_SECRET);
    const out = memory();
    const log = createLogger({ destination: out.destination }).child({ account: `key ${API_KEY}` });
    log.info(`signing with ${API_SECRET}`);
    log.info('key is %s', API_KEY);
    log.error(new Error(`401 APIKEY_INVALID for key ${API_KEY}`, { cause: new Error(`secret ${API_SECRET} rejected`) }));
    log.error(
      {
        err: new ApiError({
          status: 401,
          code: 'INVALID_SIGNATURE',
          detail: `key=${API_KEY}`,
          data: { echoedHeaders: { apiSignature: SIGNATURE }, note: `secret=${API_SECRET}` },
        }),
      },
      'request failed',
    );
    log.warn({ context: { message: `header Api-Key: ${API_KEY}`, list: [`x${API_SECRET}y`] } });
    expectClean(out.text(), API_KEY, API_SECRET, SIGNATURE);

    const lines = out.json();
    expect(lines).toHaveLength(5);
    expect(lines.every((l) => l.account === 'key [redacted]')).toBe(true);
    expect(lines[0]!.msg).toBe('signing with [redacted]');
    expect(lines[1]!.msg).toBe('key is [redacted]');
    const err = lines[2]!.err as Record<string, unknown>;
    expect(err.type).toBe('Error');
    expect(err.message).toContain('401 APIKEY_INVALID for key [redacted]');
    expect(err.message).toContain('secret [redacted] rejected');
    expect(err.stack).toEqual(expect.stringContaining('APIKEY_INVALID'));
    const apiErr = lines[3]!.err as Record<string, unknown>;
    expect(apiErr).toMatchObject({
      type: 'ApiError',
      code: 'INVALID_SIGNATURE',
      status: 401,
      data: { echoedHeaders: { apiSignature: '[redacted]' }, note: 'secret=[redacted]' },
    });
    expect(lines[4]).toMatchObject({ context: { message: 'header Api-Key: [redacted]', list: ['x[redacted]y'] } });
  });

  it('keeps every line valid JSON when a secret holds characters JSON escapes', () => {
    const odd = 'pa"ss\\wo\nrd';
    expect(registerSecret(odd)).toBe(true);
    const out = memory();
    const log = createLogger({ destination: out.destination });
    // 'nopeSecret1' must not match inside the JSON text `\nopeSecret1` (newline + 'opeSecret1'), only a real occurrence.
    registerSecret('nopeSecret1');
    log.info({ note: `before ${odd} after`, tricky: '\nopeSecret1', literal: '\\nopeSecret1' }, `msg ${odd}`);
    const [line] = out.json();
    expect(line).toMatchObject({
      note: 'before [redacted] after',
      msg: 'msg [redacted]',
      tricky: '\nopeSecret1',
      literal: '\\[redacted]',
    });
  });

  it('cuts cycles instead of leaking through them', () => {
    const out = memory();
    const log = createLogger({ destination: out.destination });
    const node: Record<string, unknown> = { apiSecret: 'cyclic-secret-value', name: 'n' };
    node.self = node;
    log.info({ node });
    expectClean(out.text(), 'cyclic-secret-value');
    expect(out.json()[0]).toMatchObject({ node: { name: 'n', self: '[Circular]' } });
  });

  it('takes the level from the option, else REXBOT_LOG_LEVEL, else info', () => {
    process.env[LOG_LEVEL_ENV] = 'warn';
    const out = memory();
    const log = createLogger({ destination: out.destination });
    expect(log.level).toBe('warn');
    log.info('dropped');
    log.warn('kept');
    expect(out.json().map((l) => l.msg)).toEqual(['kept']);
    expect(createLogger({ level: 'debug', destination: out.destination }).level).toBe('debug');
    delete process.env[LOG_LEVEL_ENV];
    expect(createLogger({ destination: out.destination }).level).toBe('info');
  });

  it('declares redact paths for the usual places', () => {
    for (const path of ['apiSecret', 'credentials.*', '*.apiKey', 'headers["api-key"]', 'req.headers["api-signature"]', '*.password', '*.token']) {
      expect(REDACT_PATHS).toContain(path);
    }
  });
});

describe('redactSecrets / registerSecret', () => {
  it('replaces registered values in strings and leaves other values alone', () => {
    registerSecret('0123456789abcdef');
    expect(redactSecrets('GET /v3/balances key=0123456789abcdef&x=1')).toBe('GET /v3/balances key=[redacted]&x=1');
    expect(redactSecrets(42)).toBe(42);
    expect(redactSecrets('nothing here')).toBe('nothing here');
  });

  it('refuses values too short to be secrets', () => {
    expect(registerSecret('')).toBe(false);
    expect(registerSecret('abc')).toBe(false);
    expect(redactSecrets('abc')).toBe('abc');
  });

  it('matches secret field names regardless of case and separators, exactly', () => {
    expect(isSecretKey('Api-Signature')).toBe(true);
    expect(isSecretKey('api_secret')).toBe(true);
    expect(isSecretKey('APIKEY')).toBe(true);
    expect(isSecretKey('apisign')).toBe(true);
    expect(isSecretKey('nextPageToken')).toBe(false);
    expect(isSecretKey('apiTimestamp')).toBe(false);
  });
});
