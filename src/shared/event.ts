/**
 * Typed events owned by the code that fires them, with disposable subscriptions (VS Code's
 * model, in the small: `Emitter<T>` fires, `Event<T>` is what it hands out, every
 * subscription is a `Disposable`, a `DisposableStore` ends several at once). Go-to-definition
 * on `x.onDidCommit` lands on the emitter that fires it, unlike a string-keyed bus.
 */
export interface Disposable {
  dispose(): void;
}

/** Subscribe; dispose the result to stop listening. */
export type Event<T> = (listener: (e: T) => void) => Disposable;

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  private disposed = false;

  /**
   * @param onListenerError a listener that throws must not stop the others (nor the code
   *   that fires, e.g. right after a commit): it is reported here. Without one, the first
   *   error is rethrown to the caller of `fire` once every listener has run.
   */
  constructor(private readonly onListenerError?: (err: unknown) => void) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const own = (e: T) => listener(e);
    this.listeners.add(own);
    return toDisposable(() => this.listeners.delete(own));
  };

  fire(e: T): void {
    let failed: { err: unknown } | null = null;
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch (err) {
        if (this.onListenerError) this.onListenerError(err);
        else failed ??= { err };
      }
    }
    if (failed) throw failed.err;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

/** Holds disposables and ends them together (a part's subscriptions, a switched core's). */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  add<D extends Disposable>(d: D): D {
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return d;
  }

  dispose(): void {
    this.disposed = true;
    const items = [...this.items];
    this.items.clear();
    for (const d of items) d.dispose();
  }

  /** Ends what it holds and stays usable (a mode switch re-subscribes to the next core). */
  clear(): void {
    const items = [...this.items];
    this.items.clear();
    for (const d of items) d.dispose();
  }
}
