/**
 * A figure /metrics reads from the store (the log's rows, the desk's connected desktops)
 * without ever holding the scrape up: a node whose link to Redis is frozen left its reads
 * unanswered until the command timeout, and Prometheus gave up on the scrape. The read
 * waits at most `waitMs`; past it (or when it fails) the last known value is served and
 * marked stale, and the read goes on in the background (one at a time) to refresh it.
 */
export const METRICS_READ_WAIT_MS = 400;

export class BoundedReading<T> {
  private last: T | null = null;
  private inflight: Promise<boolean> | null = null;
  /** The value served is the last known one, not read now. */
  stale = false;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly waitMs = METRICS_READ_WAIT_MS,
  ) {}

  /** The value now if the store answers in time, else the last known (null: none yet). */
  async get(): Promise<T | null> {
    this.inflight ??= this.read()
      .then((v) => {
        this.last = v;
        return true;
      })
      .catch(() => false)
      .finally(() => (this.inflight = null));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.waitMs);
      timer.unref?.();
    });
    const fresh = await Promise.race([this.inflight, late]);
    clearTimeout(timer);
    this.stale = !fresh;
    return this.last;
  }
}
