/**
 * A store that keeps the handles of its push subscriptions (bridge.on…) and ends them on
 * dispose: a store made again (a test, a remount) must not leave the old one listening.
 */
import type { StoreApi } from 'zustand/vanilla';
import { DisposableStore, toDisposable, type Disposable } from '../../../shared/event.js';

export type OwnedStore<S> = StoreApi<S> & Disposable;

/** `store` with a dispose that calls every `off` (each once, all even if one throws). */
export function owning<S>(store: StoreApi<S>, offs: readonly (() => void)[]): OwnedStore<S> {
  const subscriptions = new DisposableStore();
  for (const off of offs) subscriptions.add(toDisposable(off));
  return Object.assign(store, { dispose: () => subscriptions.dispose() });
}
