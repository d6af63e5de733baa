/**
 * Runs one strategy in isolation. Whatever a strategy does wrong — throw in `setup`, error its observable, throw
 * inside an operator or one of its own timer callbacks, emit something that is not an intent — the runner stops
 * that strategy's intents, tears down what it opened through its context, and reports ONE typed
 * {@link StrategyFailure}. Nothing is thrown into the caller, so the store publishing the update that broke the
 * strategy, and every other strategy subscribed to it, carry on.
 *
 * What to do with the failed strategy's open orders ('cancel' | 'keep') is the runtime's policy, not the runner's.
 */
import { BehaviorSubject, isObservable, of, Subject, takeUntil, type Observable, type Subscription } from 'rxjs';
import type { Intent, IntentKind } from '../model/intent.js';
import type { StrategyDefinition, StrategyParams } from './define-strategy.js';
import { contextLifecycle, type StrategyContext } from './strategy-context.js';
import { InvalidIntentError, StrategyFailure, type StrategyPhase } from './strategy-errors.js';
import { enterStrategy, leaveStrategy } from './strategy-scope.js';

/** `running` after a successful setup; `failed` and `stopped` are final. */
export type StrategyStatus = 'running' | 'failed' | 'stopped';

/** An intent stamped with the strategy that emitted it and the clock time it was emitted at. */
export interface StrategyIntent {
  readonly strategy: string;
  readonly intent: Intent;
  /** Clock time (epoch ms) of the emission. */
  readonly at: number;
}

/** Handle on a running strategy. */
export interface RunningStrategy {
  readonly name: string;
  readonly status: StrategyStatus;
  /** The status now, then each change; completes when the status is final. */
  readonly status$: Observable<StrategyStatus>;
  /** The failure, once `status` is `failed`. */
  readonly failure: StrategyFailure | undefined;
  /** Intents delivered to the sink so far. */
  readonly intentCount: number;
  /** Stop the strategy: no more intents, its timers and context subscriptions are closed. Idempotent. */
  stop(): void;
}

// Exhaustive by construction: adding an intent kind to the model fails to compile here until it is listed.
const INTENT_KINDS: Record<IntentKind, true> = {
  place: true,
  cancel: true,
  cancelAll: true,
  quotes: true,
  bracket: true,
  trailingStop: true,
  targetPosition: true,
};

/** Why `value` is not an intent, or undefined when it has a known kind and a non-empty key. */
function intentProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return `emitted ${value === null ? 'null' : typeof value} instead of an intent`;
  const { kind, key } = value as { kind?: unknown; key?: unknown };
  if (typeof kind !== 'string' || !Object.hasOwn(INTENT_KINDS, kind)) {
    return `emitted an intent of unknown kind ${JSON.stringify(kind)} (expected one of ${Object.keys(INTENT_KINDS).join(', ')})`;
  }
  if (typeof key !== 'string' || key.length === 0) return `emitted a '${kind}' intent without a key`;
  return undefined;
}

class StrategyRun implements RunningStrategy {
  readonly name: string;
  #failure: StrategyFailure | undefined;
  #intentCount = 0;
  readonly #status = new BehaviorSubject<StrategyStatus>('running');
  readonly #halt = new Subject<void>();
  #subscription: Subscription | undefined;
  #faults: Subscription | undefined;

  constructor(
    private readonly definition: StrategyDefinition,
    private readonly ctx: StrategyContext<unknown>,
    private readonly sink: (intent: StrategyIntent) => void,
    private readonly onFailure: (failure: StrategyFailure) => void,
  ) {
    this.name = ctx.name;
  }

  get status(): StrategyStatus {
    return this.#status.value;
  }

  get status$(): Observable<StrategyStatus> {
    // A completed BehaviorSubject replays nothing: late subscribers still get the final status.
    return this.status === 'running' ? this.#status.asObservable() : of(this.status);
  }

  get failure(): StrategyFailure | undefined {
    return this.#failure;
  }

  get intentCount(): number {
    return this.#intentCount;
  }

  start(): void {
    // setup() and the subscription (where RxJS starts the strategy's sources and timers) run in its scope.
    const outer = enterStrategy(this.name);
    try {
      this.#start();
    } finally {
      leaveStrategy(outer);
    }
  }

  #start(): void {
    const lifecycle = contextLifecycle(this.ctx);
    if (lifecycle) this.#faults = lifecycle.faults$.subscribe((err) => this.#fail('run', err));
    let intents: Observable<Intent>;
    try {
      const result: unknown = this.definition.setup(this.ctx);
      if (isThenable(result)) {
        // An async setup: refused below, and its promise must not reject unhandled later (that ends the process).
        result.then(undefined, (err: unknown) => this.ctx.log.debug({ err }, 'the refused async setup rejected'));
        throw new TypeError('setup must return an Observable<Intent>, got a Promise (setup cannot be async: return an Observable, e.g. from(promise) piped into intents)');
      }
      if (!isObservable(result)) {
        throw new TypeError(`setup must return an Observable<Intent>, got ${result === null ? 'null' : typeof result}`);
      }
      intents = result as Observable<Intent>;
    } catch (err) {
      this.#fail('setup', err);
      return;
    }
    if (this.status !== 'running') return; // a timer callback scheduled in setup cannot have fired yet, but be exact
    this.ctx.log.info({ markets: this.ctx.markets }, 'strategy started');
    // takeUntil(halt) lets a failure detected while the source is still emitting synchronously (before
    // subscribe() has returned a Subscription to unsubscribe) stop the source right away.
    this.#subscription = intents.pipe(takeUntil(this.#halt)).subscribe({
      next: (intent) => this.#deliver(intent),
      error: (err: unknown) => this.#fail('run', err),
      complete: () => {
        if (this.status !== 'running') return;
        this.ctx.log.info('strategy completed: its observable ended');
        this.#finish('stopped');
      },
    });
  }

  stop(): void {
    if (this.status !== 'running') return;
    this.ctx.log.info('strategy stopped');
    this.#finish('stopped');
  }

  #deliver(value: unknown): void {
    if (this.status !== 'running') return;
    const problem = intentProblem(value);
    if (problem !== undefined) {
      this.#fail('run', new InvalidIntentError(`strategy '${this.name}' ${problem}`, value));
      return;
    }
    const stamped: StrategyIntent = { strategy: this.name, intent: value as Intent, at: this.ctx.clock.now() };
    try {
      this.sink(stamped);
    } catch (err) {
      // The sink (order manager) is not supposed to throw; if the strategy's intent made it throw, isolating the
      // strategy is the safe reaction — the rest of the bot keeps running.
      this.#fail('run', err);
      return;
    }
    this.#intentCount++;
  }

  #fail(phase: StrategyPhase, cause: unknown): void {
    if (this.status !== 'running') return;
    this.#failure = new StrategyFailure(this.name, phase, cause);
    this.ctx.log.error({ err: cause, phase }, 'strategy failed; its intents are stopped');
    this.#finish('failed');
    try {
      this.onFailure(this.#failure);
    } catch (err) {
      this.ctx.log.error({ err }, 'onFailure handler threw');
    }
  }

  #finish(status: 'failed' | 'stopped'): void {
    this.#status.next(status);
    this.#halt.next();
    this.#halt.complete();
    this.#subscription?.unsubscribe();
    this.#faults?.unsubscribe();
    contextLifecycle(this.ctx)?.dispose();
    this.#status.complete();
  }
}

/**
 * Start a strategy: call `setup(ctx)`, subscribe, and deliver each intent to `sink` stamped with `ctx.name`.
 * Never throws; a broken strategy is reported to `onFailure` exactly once and its status becomes `failed`.
 *
 * @example
 * const run = runStrategy(definition, ctx, (i) => orderManager.submit(i.strategy, i.intent), (failure) => {
 *   log.error({ err: failure }, failure.message);
 *   if (policy === 'cancel') void orderManager.cancelAll(failure.strategy);
 * });
 * run.status; // 'running' | 'failed' | 'stopped'
 */
export function runStrategy<S extends StrategyDefinition>(
  definition: S,
  ctx: StrategyContext<StrategyParams<S>>,
  sink: (intent: StrategyIntent) => void,
  onFailure: (failure: StrategyFailure) => void,
): RunningStrategy {
  const run = new StrategyRun(definition as StrategyDefinition, ctx as StrategyContext<unknown>, sink, onFailure);
  run.start();
  return run;
}

/** Whether `v` is a promise or another thenable. */
function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as { then?: unknown }).then === 'function';
}
