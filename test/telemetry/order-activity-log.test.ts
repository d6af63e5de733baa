/** Order activity as short lines: a batch of placements and cancels is one line, a fill is its own line. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Order } from '../../src/model/order.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { createLogger, prettyDestination, registerSecret, resolveLogFormat } from '../../src/telemetry/logger.js';
import { OrderActivityLog } from '../../src/telemetry/order-activity-log.js';

function sink(): { out: Writable; text: () => string } {
  let text = '';
  const out = new Writable({ write(chunk: Buffer, _e, done) { text += chunk.toString(); done(); } });
  return { out, text: () => text };
}

const order = (o: Partial<Order> & Pick<Order, 'direction'>): Order => ({
  id: `id-${Math.random()}`, marketSymbol: 'BTC-USD', type: 'LIMIT', quantity: dec('0.002'), limit: dec('30000'), timeInForce: 'GOOD_TIL_CANCELLED',
  fillQuantity: dec('0'), commission: dec('0'), proceeds: dec('0'), status: 'OPEN', createdAt: new Date(0), ...o,
} as Order);

const accepted = (o: Order): OrderEvent => ({ type: 'accepted', strategy: 'mm', intentKey: 'q', clientOrderId: `c-${o.id}`, order: o, at: 0 });
const closed = (o: Order): OrderEvent => ({ type: 'closed', strategy: 'mm', intentKey: 'q', clientOrderId: `c-${o.id}`, order: { ...o, status: 'CLOSED' }, at: 0 });

describe('OrderActivityLog', () => {
  it('writes one line per strategy and market for what was placed and cancelled together, a line per fill, and counts', async () => {
    const s = sink();
    const log = new OrderActivityLog(createLogger({ destination: s.out }));
    log.onEvent(accepted(order({ direction: 'BUY', limit: dec('29990') })));
    log.onEvent(accepted(order({ direction: 'SELL', limit: dec('30010') })));
    log.onEvent(closed(order({ direction: 'BUY' })));
    log.onEvent(closed(order({ direction: 'SELL', fillQuantity: dec('0.002') }))); // filled completely: not a cancel
    await Promise.resolve();
    log.onEvent({ type: 'fill', strategy: 'mm', intentKey: 'q', clientOrderId: 'c', orderId: 'o', marketSymbol: 'BTC-USD', direction: 'SELL', quantity: dec('0.001'), rate: dec('30010'), commission: dec('0.105035'), isTaker: false, executionId: 'e', at: 0 });
    const lines = s.text().trim().split('\n').map((l) => JSON.parse(l) as { msg: string; placed?: number; cancelled?: number });
    expect(lines.map((l) => l.msg)).toEqual([
      'mm BTC-USD: placed BUY 0.002@29990, SELL 0.002@30010; cancelled 1',
      'mm BTC-USD: filled SELL 0.001@30010 (fee 0.105035)',
    ]);
    expect(lines[0]).toMatchObject({ placed: 2, cancelled: 1 });
    expect(log.takeCounts()).toEqual({ placed: 2, cancelled: 1, fills: 1, denied: 0, rejected: 0 });
    expect(log.takeCounts()).toEqual({ placed: 0, cancelled: 0, fills: 0, denied: 0, rejected: 0 });
  });
});

describe('log format', () => {
  it('auto is pretty on a terminal and JSON otherwise; a flag or a configured format wins', () => {
    expect(resolveLogFormat('auto', undefined, true)).toBe('pretty');
    expect(resolveLogFormat('auto', undefined, false)).toBe('json');
    expect(resolveLogFormat('auto', undefined, undefined)).toBe('json');
    expect(resolveLogFormat('json', undefined, true)).toBe('json');
    expect(resolveLogFormat('json', 'pretty', false)).toBe('pretty');
    expect(resolveLogFormat('pretty', 'json', true)).toBe('json');
  });

  it('pretty lines are readable, uncoloured off a terminal, and still scrub secrets', () => {
    const s = sink();
    registerSecret('sup3r-s3cret-value');
    const logger = createLogger({ format: 'pretty', destination: s.out as never, name: 'bot' });
    logger.info({ apiSecret: 'x', note: 'key sup3r-s3cret-value' }, 'hello there');
    const text = s.text();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(bot\): hello there /);
    expect(text).not.toContain('sup3r-s3cret-value');
    expect(text).not.toMatch(/"apiSecret":"x"/);
    expect(text).not.toContain('\u001b[');
    expect(prettyDestination(s.out)).toBeDefined();
  });
  it('with info off (a backtest) builds no line but counts the same, and writes again once info is back on', async () => {
    const events = (): OrderEvent[] => [
      accepted(order({ direction: 'BUY', limit: dec('29990') })),
      closed(order({ direction: 'BUY' })),
      { type: 'fill', strategy: 'mm', intentKey: 'q', clientOrderId: 'c', orderId: 'o', marketSymbol: 'BTC-USD', direction: 'SELL', quantity: dec('0.001'), rate: dec('30010'), commission: dec('0.1'), isTaker: true, executionId: 'e', at: 0 },
      { type: 'denied', strategy: 'mm', intentKey: 'q', reasons: [{ code: 'SUBMIT_RATE', message: 'too fast' }], at: 0 },
    ];
    const on = sink();
    const off = sink();
    const logOn = new OrderActivityLog(createLogger({ destination: on.out }));
    const quiet = createLogger({ destination: off.out, level: 'warn' });
    const logOff = new OrderActivityLog(quiet);
    for (const e of events()) {
      logOn.onEvent(e);
      logOff.onEvent(e);
    }
    await Promise.resolve();
    expect(off.text()).toBe('');
    expect(on.text()).not.toBe('');
    expect(logOff.takeCounts()).toEqual(logOn.takeCounts());
    quiet.level = 'info';
    logOff.onEvent(accepted(order({ direction: 'SELL', limit: dec('30010') })));
    await Promise.resolve();
    expect(off.text()).toContain('mm BTC-USD: placed SELL 0.002@30010');
  });
});
