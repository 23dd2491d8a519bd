/**
 * Each event's usual precision: the most decimals its cached figures print with. A release
 * whose own figures are all round (an ECB hold at 1.9 / 1.9 / 1.9) is then shown as its
 * history prints it ("1.90%"), not with the one decimal a bare number carries. Kept up to
 * date by every event-date write; filled here from the rows cached before.
 */
import type Database from 'better-sqlite3';
import { valueDecimalsV1 } from './frozen/value-decimals.js';

type Figures = [string, number | null, number | null, number | null, number | null];

export default {
  version: 9,
  name: 'event_precision',
  up(db: Database.Database): void {
    db.exec(`CREATE TABLE event_precision (
      event_id TEXT PRIMARY KEY,
      decimals INTEGER NOT NULL
    ) WITHOUT ROWID`);
    const most = new Map<string, number>();
    const rows = db
      .prepare('SELECT event_id, actual, consensus, previous, revised FROM event_dates')
      .raw()
      .iterate() as IterableIterator<Figures>;
    for (const [eventId, ...figures] of rows) {
      const d = valueDecimalsV1(figures);
      if (d !== undefined) most.set(eventId, Math.max(most.get(eventId) ?? 0, d));
    }
    // written after the read: a statement cannot write while another one is iterating
    const insert = db.prepare('INSERT INTO event_precision (event_id, decimals) VALUES (?, ?)');
    for (const [eventId, decimals] of most) insert.run(eventId, decimals);
  },
};
