/** The alert history: what was raised, deduplicated by key, and what the user has read. */
import type { AlertRecord, AlertSurface, ChangeSource, FeedLatency } from '../../shared/domain.js';
import {
  ALERTS_TODAY_TITLE_MAX,
  utcDayStart,
  type AlertsToday,
} from '../../shared/desk-alerts-today.js';
import type { NewAlert } from '../alerts/port.js';
import type { AlertsTable } from './schema.js';
import { parseReceipt, parseTarget } from './alert-json.js';
import type { Statements } from './statements.js';

type AlertRow = Pick<
  AlertsTable,
  'id' | 'kind' | 'title' | 'body' | 'created_at' | 'read' | 'target' | 'late' | 'receipt'
>;

const COLUMNS = 'id, kind, title, body, created_at, read, target, late, receipt';
const DAY_MS = 86_400_000;

const toRecord = (r: AlertRow): AlertRecord => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  createdAt: r.created_at,
  read: r.read === 1,
  target: parseTarget(r.target),
  late: r.late === 1,
  receipt: parseReceipt(r.receipt),
});

/** The value at quantile `q` of sorted numbers (nearest rank). */
function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? 0;
}

/** A new alert's columns, in the order `insert` and `replace` write them. */
const columnsOf = (a: NewAlert) =>
  [
    a.dedupKey,
    a.kind,
    a.title,
    a.body,
    a.createdAt,
    JSON.stringify(a.target),
    a.late ? 1 : 0,
    a.receipt ? JSON.stringify(a.receipt) : null,
  ] as const;

/** The record of an alert just written under `id` (unread). */
const recordOf = (id: number, a: NewAlert): AlertRecord => ({
  id,
  kind: a.kind,
  title: a.title,
  body: a.body,
  createdAt: a.createdAt,
  read: false,
  target: a.target,
  late: a.late === true,
  receipt: a.receipt ?? null,
});

export class Alerts {
  constructor(
    private readonly q: Statements,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /** Records an alert unless one with the same dedup key exists (then null). */
  insert(a: NewAlert): AlertRecord | null {
    const r = this.q
      .objects(
        'INSERT OR IGNORE INTO alerts (dedup_key, kind, title, body, created_at, target, late, receipt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(...columnsOf(a));
    return r.changes === 0 ? null : recordOf(Number(r.lastInsertRowid), a);
  }

  /**
   * Rewrite the alert recorded under `dedupKey` as `a` (unread again, a fresh receipt),
   * keeping its id: the window, the tray and the history show one alert, now the real one.
   * Null when there is none, or `a`'s own key is recorded already.
   */
  replace(dedupKey: string, a: NewAlert): AlertRecord | null {
    const row = this.q
      .objects<{ id: number }>(
        'UPDATE OR IGNORE alerts SET dedup_key = ?, kind = ?, title = ?, body = ?, created_at = ?, target = ?, late = ?, receipt = ?, read = 0 WHERE dedup_key = ? RETURNING id',
      )
      .get(...columnsOf(a), dedupKey);
    return row ? recordOf(row.id, a) : null;
  }

  /** One hop of these alerts' receipts, once (a hop already stamped keeps its time). */
  markReceipt(ids: number[], hop: 'sentAt' | 'fallbackAt', at: number): void {
    const s = this.q.objects(
      `UPDATE alerts SET receipt = json_set(receipt, '$.${hop}', ?) WHERE id = ? AND receipt IS NOT NULL AND json_extract(receipt, '$.${hop}') IS NULL`,
    );
    this.transaction(() => ids.forEach((id) => s.run(at, id)));
  }

  /** The first surface that acknowledged these alerts' notification, and when. */
  markShown(ids: number[], at: number, surface: AlertSurface): void {
    const s = this.q.objects(
      "UPDATE alerts SET receipt = json_set(receipt, '$.shownAt', ?, '$.shownBy', ?) WHERE id = ? AND receipt IS NOT NULL AND json_extract(receipt, '$.shownAt') IS NULL",
    );
    this.transaction(() => ids.forEach((id) => s.run(at, surface, id)));
  }

  list(q: { limit?: number; unreadOnly?: boolean } = {}): AlertRecord[] {
    return this.q
      .objects<AlertRow>(
        `SELECT ${COLUMNS} FROM alerts ${q.unreadOnly ? 'WHERE read = 0' : ''}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(q.limit ?? 200)
      .map(toRecord);
  }

  /** Print → shown (acknowledged by a surface) over the day before `now`, by path. */
  latency(now: number): FeedLatency[] {
    const rows = this.q
      .objects<Pick<AlertRow, 'receipt'>>(
        "SELECT receipt FROM alerts WHERE created_at >= ? AND kind = 'released' AND receipt IS NOT NULL",
      )
      .all(now - DAY_MS);
    const byPath = new Map<ChangeSource, { delays: number[]; unacknowledged: number }>();
    for (const row of rows) {
      const r = parseReceipt(row.receipt);
      if (!r || r.printAt === null) continue;
      const entry = byPath.get(r.path) ?? { delays: [], unacknowledged: 0 };
      byPath.set(r.path, entry);
      // Only what a surface acknowledged counts as shown; sent and never seen is counted apart.
      if (r.shownAt !== null) entry.delays.push(Math.max(0, r.shownAt - r.printAt));
      else if (r.sentAt != null) entry.unacknowledged++;
    }
    return [...byPath].map(([path, { delays, unacknowledged }]) => {
      const sorted = delays.sort((a, b) => a - b);
      return {
        path,
        count: sorted.length,
        unacknowledged,
        p50Ms: quantile(sorted, 0.5),
        p99Ms: quantile(sorted, 0.99),
      };
    });
  }

  /** The prints alerted since the UTC day of `now` began, for the desk (presence reports). */
  today(now: number): AlertsToday {
    const day = utcDayStart(now);
    const rows = this.q
      .objects<Pick<AlertRow, 'title' | 'receipt' | 'created_at'>>(
        "SELECT title, receipt, created_at FROM alerts WHERE created_at >= ? AND kind = 'released' AND receipt IS NOT NULL ORDER BY created_at, id",
      )
      .all(day);
    const late: number[] = [];
    let last: AlertsToday['last'] = null;
    let count = 0;
    let unacknowledged = 0;
    for (const row of rows) {
      const r = parseReceipt(row.receipt);
      if (!r || r.printAt === null) continue;
      count++;
      // Only what a surface acknowledged has a lateness; a print no one saw (never sent,
      // paused, or sent and not acknowledged) is counted apart, never stamped with the
      // time it was applied.
      if (r.shownAt === null) {
        unacknowledged++;
        continue;
      }
      const lateMs = Math.max(0, r.shownAt - r.printAt);
      late.push(lateMs);
      last = { title: row.title.slice(0, ALERTS_TODAY_TITLE_MAX), printAt: r.printAt, lateMs };
    }
    const sorted = late.sort((a, b) => a - b);
    return {
      day,
      count,
      unacknowledged,
      p50LateMs: sorted.length ? quantile(sorted, 0.5) : null,
      maxLateMs: sorted.at(-1) ?? null,
      last,
    };
  }

  markRead(ids?: number[]): void {
    if (!ids) {
      this.q.objects('UPDATE alerts SET read = 1 WHERE read = 0').run();
      return;
    }
    const s = this.q.objects('UPDATE alerts SET read = 1 WHERE id = ?');
    this.transaction(() => ids.forEach((id) => s.run(id)));
  }

  countUnread(): number {
    return this.q.values<number>('SELECT count(*) FROM alerts WHERE read = 0').get() ?? 0;
  }
}
