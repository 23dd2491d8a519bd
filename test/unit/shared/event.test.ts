/** The typed events the core's parts own (src/shared/event.ts): fire, dispose, stores. */
import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter, toDisposable } from '../../../src/shared/event.js';

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

  it('without an error handler, the others still run and fire() then throws the first error', () => {
    const e = new Emitter<string>();
    const got: string[] = [];
    e.event(() => {
      throw new Error('first');
    });
    e.event((s) => got.push(s));
    expect(() => e.fire('x')).toThrow('first');
    expect(got).toEqual(['x']);
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
});
