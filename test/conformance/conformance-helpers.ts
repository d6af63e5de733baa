/**
 * Helpers of the gateway conformance suite: the engine every target is built on, the market the suite trades
 * in, comparisons against the engine (the truth every gateway must answer), and stream collection.
 */
import { expect, vi } from 'vitest';
import type { Subscription } from 'rxjs';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { systemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { ApiError } from '../../src/core/errors.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import type { NewOrder } from '../../src/model/order.js';
import { defaultSimConfig } from '../../src/sim/config.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';
import { SimError } from '../../src/sim/sim-error.js';

/** One gateway under test, acting as `accountId` of `engine` (funded by the suite, not by the factory). */
export interface GatewayUnderTest {
  gateway: ExchangeGateway;
  engine: SimEngine;
  accountId: string;
  /** Release the gateway and whatever the factory started (server, engine listeners). */
  close(): Promise<void>;
}

/** A target as each test gets it: funded, `M` seeded by `maker`, with short names for the gateway and account. */
export interface FreshTarget extends GatewayUnderTest {
  maker: string;
  g: ExchangeGateway;
  me: string;
}

/** Makes a fresh, independent {@link GatewayUnderTest} per test. */
export type GatewayFactory = () => Promise<GatewayUnderTest>;

/**
 * The engine factories build on: wall-clock time (network gateways sign with it) and conditional orders acting
 * at once after their trigger (the seed's "small delay" is a setting; waiting a second per test buys nothing).
 */
export function createConformanceEngine(): SimEngine {
  return createSimEngine({ clock: systemClock, config: { ...defaultSimConfig(), conditionalTriggerDelayMs: 0 } });
}

/** The market the suite trades. */
export const M = 'BTC-USD';

/** A GOOD_TIL_CANCELLED limit order of `M`. */
export function limit(direction: 'BUY' | 'SELL', rate: string, quantity: string, over: Partial<NewOrder> = {}): NewOrder {
  return { marketSymbol: M, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(rate), ...over };
}

/**
 * Fund the account under test (100,000 USD, 2 BTC) and give `M` a book from another account: asks 0.5 at 30,000
 * and 30,100, bids 0.5 at 29,000 and 28,900. Returns that other account's id.
 */
export function seedMarket(t: GatewayUnderTest): string {
  const { engine } = t;
  engine.fund(t.accountId, 'USD', dec('100000'));
  engine.fund(t.accountId, 'BTC', dec('2'));
  const maker = engine.createParticipant({ USD: dec('1000000'), BTC: dec('100') });
  engine.placeOrder(maker, limit('SELL', '30000', '0.5'));
  engine.placeOrder(maker, limit('SELL', '30100', '0.5'));
  engine.placeOrder(maker, limit('BUY', '29000', '0.5'));
  engine.placeOrder(maker, limit('BUY', '28900', '0.5'));
  return maker;
}

/**
 * A value as it would cross the wire: Decimals as their canonical text, Dates as ISO text, absent and undefined
 * fields alike. What a gateway answers must equal what the engine holds in this form.
 */
export function plain<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** `actual` equals the engine's `truth` field for field (see {@link plain}). */
export function expectSame(actual: unknown, truth: unknown): void {
  expect(plain(actual)).toEqual(plain(truth));
}

/**
 * The gateway call rejects with an {@link ApiError} carrying the status, code and data the engine refuses the same
 * request with (the engine is asked directly, for the same account; a refusal changes nothing). Returns the error.
 */
export async function expectSameRefusal(call: Promise<unknown>, engineCall: () => unknown): Promise<ApiError> {
  const err = await call.then(
    (v) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(plain(v))}`);
    },
    (e: unknown) => e,
  );
  let truth: unknown;
  try {
    engineCall();
  } catch (e) {
    truth = e;
  }
  expect(truth, 'the engine itself refuses this request').toBeInstanceOf(SimError);
  const t = truth as SimError;
  expect(err).toBeInstanceOf(ApiError);
  const a = err as ApiError;
  expect({ status: a.status, code: a.code, data: plain(a.data ?? null) }).toEqual({ status: t.status, code: t.code, data: plain(t.data ?? null) });
  return a;
}

/** Every stream message the gateway delivers from now on, until `stop()`. */
export function recordStreams(gateway: ExchangeGateway): { messages: StreamMessage[]; stop(): void } {
  const messages: StreamMessage[] = [];
  const sub: Subscription = gateway.streams.messages$.subscribe((m) => messages.push(m));
  return { messages, stop: () => sub.unsubscribe() };
}

/** Wait until `check` passes (network deliveries take a few event-loop turns; in-process ones a microtask). */
export async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  await vi.waitFor(check, { timeout: timeoutMs, interval: 5 });
}
