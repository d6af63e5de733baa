import { filter, Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Multicast } from '../../src/core/multicast.js';

/** What subscribers of a hot source see for one script of subscriptions, values and unsubscriptions. */
function script(source: { next(v: number): void; complete(): void; observable: import('rxjs').Observable<number> }): string[] {
  const log: string[] = [];
  const a = source.observable.subscribe({ next: (v) => log.push(`a${v}`), complete: () => log.push('a.') });
  source.next(1);
  let c: import('rxjs').Subscription | undefined;
  const b = source.observable.subscribe((v) => {
    log.push(`b${v}`);
    // Subscribed while a value is delivered: sees the next value, not this one.
    c ??= source.observable.pipe(filter((x) => x % 2 === 1)).subscribe((x) => log.push(`c${x}`));
    if (v === 3) a.unsubscribe();
  });
  source.observable.pipe(take(1)).subscribe({ next: (v) => log.push(`t${v}`), complete: () => log.push('t.') });
  source.next(2);
  source.next(3);
  source.next(4);
  b.unsubscribe();
  source.next(5);
  source.complete();
  source.observable.subscribe({ complete: () => log.push('late.') });
  source.next(6);
  return log;
}

describe('Multicast', () => {
  it('delivers, adds, removes and completes exactly as a Subject does', () => {
    const subject = new Subject<number>();
    const want = script({ next: (v) => subject.next(v), complete: () => subject.complete(), observable: subject.asObservable() });
    const m = new Multicast<number>();
    expect(script({ next: (v) => m.next(v), complete: () => m.complete(), observable: m.observable })).toEqual(want);
    expect(want).toContain('c5');
  });

  it('says whether anything is subscribed', () => {
    const m = new Multicast<string>();
    expect(m.observed).toBe(false);
    const s = m.observable.subscribe();
    expect(m.observed).toBe(true);
    s.unsubscribe();
    expect(m.observed).toBe(false);
  });
});
