/** The typed events the core's parts own (src/shared/event.ts): fire, dispose, stores. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  DisposableStore,
  Emitter,
  ListenerLeakError,
  setListenerLeakThreshold,
  setUnexpectedErrorHandler,
  toDisposable,
} from '../../../src/shared/event.js';
import { checkListenerLeaks } from '../../support/listener-leaks.js';

/** Records what reaches onUnexpectedError until the test ends. */
let restore: (() => void) | null = null;
function recordUnexpected(): unknown[] {
  const seen: unknown[] = [];
  restore = setUnexpectedErrorHandler((err) => seen.push(err));
  return seen;
}
afterEach(() => {
  restore?.();
  restore = null;
  checkListenerLeaks();
});

describe('Emitter', () => {
  it('delivers each fire once per subscription until it is disposed', () => {
    const e = new Emitter<number>();
    const got: number[] = [];
    const sub = e.event((n) => got.push(n));
    e.fire(1);
    sub.dispose();
    sub.dispose(); // twice is harmless
    e.fire(2);
    expect(got).toEqual([1]);
    expect(e.listenerCount).toBe(0);
  });

  it('a throwing listener does not stop the others; the error is reported', () => {
    const errors: unknown[] = [];
    const e = new Emitter<string>((err) => errors.push(err));
    const got: string[] = [];
    e.event(() => {
      throw new Error('boom');
    });
    e.event((s) => got.push(s));
    e.fire('x');
    expect(got).toEqual(['x']);
    expect(errors).toHaveLength(1);
  });

  it('without an error handler, fire() never throws: each error goes to onUnexpectedError', () => {
    const seen = recordUnexpected();
    const e = new Emitter<string>();
    const got: string[] = [];
    e.event(() => {
      throw new Error('first');
    });
    e.event((s) => got.push(s));
    e.event(() => {
      throw new Error('second');
    });
    expect(() => e.fire('x')).not.toThrow();
    expect(got).toEqual(['x']);
    expect(seen.map((err) => (err as Error).message)).toEqual(['first', 'second']);
  });

  it('names the event to onUnexpectedError when it has no handler of its own', () => {
    const seen: [string, string | undefined][] = [];
    restore = setUnexpectedErrorHandler((err, event) => seen.push([(err as Error).message, event]));
    const named = new Emitter<void>({ name: 'Health.onChange' });
    named.event(() => {
      throw new Error('named broke');
    });
    named.fire();
    const unnamed = new Emitter<void>();
    unnamed.event(() => {
      throw new Error('unnamed broke');
    });
    unnamed.fire();
    expect(seen).toEqual([
      ['named broke', 'Health.onChange'],
      ['unnamed broke', undefined],
    ]);
  });

  it('a handler that throws itself is reported too, and the next listener still runs', () => {
    const seen = recordUnexpected();
    const e = new Emitter<number>(() => {
      throw new Error('handler broke');
    });
    const got: number[] = [];
    e.event(() => {
      throw new Error('listener broke');
    });
    e.event((n) => got.push(n));
    e.fire(7);
    expect(got).toEqual([7]);
    expect(seen.map((err) => (err as Error).message)).toEqual(['handler broke']);
  });

  it('reports a leak once, past the threshold, with the stack of the subscription that crossed it', () => {
    const seen = recordUnexpected();
    setListenerLeakThreshold(3);
    const e = new Emitter<void>();
    const subs = [1, 2, 3].map(() => e.event(() => undefined));
    expect(seen).toEqual([]);
    subs.push(
      e.event(() => undefined),
      e.event(() => undefined),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(ListenerLeakError);
    expect((seen[0] as Error).message).toMatch(/4 listeners on one emitter \(threshold 3\)/);
    expect((seen[0] as Error).message).toContain('event.test.ts');
    subs.forEach((s) => s.dispose());
    expect(e.listenerCount).toBe(0);
  });
});

describe('DisposableStore', () => {
  it('ends everything it holds; clear() keeps it usable, dispose() ends later additions', () => {
    const ended: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => ended.push('a')));
    store.clear();
    store.add(toDisposable(() => ended.push('b')));
    store.dispose();
    store.add(toDisposable(() => ended.push('c'))); // added after: ended at once
    expect(ended).toEqual(['a', 'b', 'c']);
  });

  it('disposes every item even when some throw, then throws their errors together', () => {
    const ended: string[] = [];
    const store = new DisposableStore();
    const failing = (name: string) =>
      toDisposable(() => {
        throw new Error(name);
      });
    store.add(failing('x'));
    store.add(toDisposable(() => ended.push('a')));
    store.add(failing('y'));
    store.add(toDisposable(() => ended.push('b')));
    let thrown: unknown;
    try {
      store.dispose();
    } catch (err) {
      thrown = err;
    }
    expect(ended).toEqual(['a', 'b']);
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((e: Error) => e.message)).toEqual(['x', 'y']);

    const one = new DisposableStore();
    one.add(failing('only'));
    one.add(toDisposable(() => ended.push('c')));
    expect(() => one.clear()).toThrow('only');
    expect(ended).toEqual(['a', 'b', 'c']);
  });
});
