/**
 * The positions of the log's last events — id and time received, never bodies — kept in
 * memory as the node learns of them (onAppend: every node sees every event), so how far
 * behind a desktop is costs a binary search, whatever it claims to have applied and however
 * many desktops there are. Read once from the log's tail at start.
 */
import { compareIds, type EventLog } from '../../log/event-log.js';

export interface Lag {
  /** Events after the desktop's applied id (at most `cap`). */
  events: number;
  /** More than `cap` behind (events is then the cap). */
  capped: boolean;
  /** Seconds (fractional) since the first event it has not applied arrived (0 when current). */
  seconds: number;
}

export class LogPositions {
  private ids: string[] = [];
  private times: number[] = [];
  /** Positions before ids[0] exist in the log (so a desktop before ids[0] is capped). */
  private older = false;
  private readonly stop: () => void;

  /** @param cap positions kept: a desktop further behind counts as "at least this many". */
  constructor(
    events: EventLog,
    private readonly cap: number,
  ) {
    this.stop = events.onAppend((batch) => {
      for (const e of batch) this.push(e.id, e.receivedAt);
    });
  }

  /** Reads the log's tail (once, at start): positions not yet passed to onAppend. */
  async seed(events: EventLog): Promise<void> {
    const tail = await events.lastPositions(this.cap + 1);
    const first = this.ids[0];
    const before = tail.filter((p) => first === undefined || compareIds(p.id, first) < 0);
    if (tail.length > this.cap) this.older = true;
    this.ids = [...before.map((p) => p.id), ...this.ids];
    this.times = [...before.map((p) => p.receivedAt), ...this.times];
    this.trim();
  }

  private push(id: string, receivedAt: number): void {
    const last = this.ids.at(-1);
    if (last !== undefined && compareIds(id, last) <= 0) return;
    this.ids.push(id);
    this.times.push(receivedAt);
    this.trim();
  }

  private trim(): void {
    // Trimmed in chunks, so the arrays are not copied on every event.
    if (this.ids.length <= this.cap * 2) return;
    const drop = this.ids.length - this.cap;
    this.ids = this.ids.slice(drop);
    this.times = this.times.slice(drop);
    this.older = true;
  }

  /** Index of the first position after `id` (ids.length when none). */
  private firstAfter(id: string): number {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareIds(this.ids[mid] as string, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** How far behind a desktop that applied up to `appliedId` (null: nothing) is at `now`. */
  lag(appliedId: string | null, now: number): Lag {
    const at = appliedId === null ? 0 : this.firstAfter(appliedId);
    const behind = this.ids.length - at;
    if (behind === 0) return { events: 0, capped: false, seconds: 0 };
    // Before the positions kept: behind by more than they span, since at least ids[0].
    const beforeKept = at === 0 && this.older;
    const first = this.times[at] as number;
    const seconds = Math.max(0, (now - first) / 1000);
    if (beforeKept || behind > this.cap) return { events: this.cap, capped: true, seconds };
    return { events: behind, capped: false, seconds };
  }

  close(): void {
    this.stop();
  }
}
