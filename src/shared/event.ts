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

/**
 * Where an error nobody called for goes: `event` names the event whose listener threw
 * (absent for other errors). The app core and the relay install their logger
 * (`src/node/log/unexpected-errors.ts`), tests a recorder.
 */
export type UnexpectedErrorHandler = (err: unknown, event?: string) => void;

/** Where a listener's error goes when its emitter has no handler (VS Code's onUnexpectedError). */
let unexpectedErrorHandler: UnexpectedErrorHandler = (err, event) => {
  // Never into the code that fired (a commit, a request): said where a developer looks.
  console.error(`a listener${event ? ` of ${event}` : ''} failed:`, err);
};

/**
 * Routes unexpected errors (listener failures, listener leaks) to `handler` from now on.
 * Returns the restore: the previous handler comes back only if `handler` is still the one
 * installed (a core stopping after another started leaves the newer one in place).
 */
export function setUnexpectedErrorHandler(handler: UnexpectedErrorHandler): () => void {
  const previous = unexpectedErrorHandler;
  unexpectedErrorHandler = handler;
  return () => {
    if (unexpectedErrorHandler === handler) unexpectedErrorHandler = previous;
  };
}

/** Reports an error nobody called for; a handler that throws cannot make it worse. */
export function onUnexpectedError(err: unknown, event?: string): void {
  try {
    unexpectedErrorHandler(err, event);
  } catch {
    // the report failed: nothing better to do with it here
  }
}

/**
 * Listeners one emitter may hold before it is reported as a leak (0: never checked). A
 * subscription per request or per render that is never disposed grows past any fixed
 * count; the test setup sets one (test/support/listener-leaks.ts), so such a test fails.
 */
let leakThreshold = 0;
let onLeak: (err: ListenerLeakError) => void = (err) => onUnexpectedError(err);

/** `report`: where a leak goes (tests fail on it), whatever logger the code installed. */
export function setListenerLeakThreshold(
  n: number,
  report: (err: ListenerLeakError) => void = (err) => onUnexpectedError(err),
): void {
  leakThreshold = n;
  onLeak = report;
}

/** An emitter holds more listeners than the leak threshold: a subscription is not disposed. */
export class ListenerLeakError extends Error {
  constructor(count: number, threshold: number, stack: string | undefined) {
    super(
      `possible listener leak: ${count} listeners on one emitter (threshold ${threshold}); the last subscribed at:\n${stack ?? '(no stack)'}`,
    );
    this.name = 'ListenerLeakError';
  }
}

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

export interface EmitterOptions {
  /** Names the event when a listener's error goes to `onUnexpectedError`. */
  name?: string;
  onListenerError?: (err: unknown) => void;
}

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  private disposed = false;
  private leakReported = false;

  private readonly onListenerError: ((err: unknown) => void) | undefined;
  private readonly name: string | undefined;

  /**
   * @param options a listener that throws must not stop the others (nor the code that
   *   fires, e.g. right after a commit): it is reported to `onListenerError` (or the
   *   function given), or without one to `onUnexpectedError` with the event's `name`.
   *   `fire` itself never throws a listener's error.
   */
  constructor(options: ((err: unknown) => void) | EmitterOptions = {}) {
    if (typeof options === 'function') this.onListenerError = options;
    else {
      this.onListenerError = options.onListenerError;
      this.name = options.name;
    }
  }

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const own = (e: T) => listener(e);
    this.listeners.add(own);
    this.checkLeak();
    return toDisposable(() => this.listeners.delete(own));
  };

  fire(e: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch (err) {
        if (!this.onListenerError) onUnexpectedError(err, this.name);
        else
          try {
            this.onListenerError(err);
          } catch (reportErr) {
            onUnexpectedError(reportErr, this.name);
          }
      }
    }
  }

  /** Reported once per emitter: the stack of the subscription that crossed the threshold. */
  private checkLeak(): void {
    if (leakThreshold <= 0 || this.leakReported || this.listeners.size <= leakThreshold) return;
    this.leakReported = true;
    const stack = new Error().stack?.split('\n').slice(2).join('\n');
    onLeak(new ListenerLeakError(this.listeners.size, leakThreshold, stack));
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
    this.clear();
  }

  /**
   * Ends what it holds and stays usable (a mode switch re-subscribes to the next core).
   * Every item is disposed even when one throws; then its error is thrown (several: an
   * AggregateError), as VS Code's `dispose` does.
   */
  clear(): void {
    const items = [...this.items];
    this.items.clear();
    disposeAll(items);
  }
}

/** Disposes every item, even past one that throws; then throws what failed. */
export function disposeAll(items: Iterable<Disposable>): void {
  const errors: unknown[] = [];
  for (const d of items) {
    try {
      d.dispose();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1)
    throw new AggregateError(errors, `${errors.length} disposables failed to dispose`);
}
