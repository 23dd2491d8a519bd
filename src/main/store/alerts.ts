/** The alert history: what was raised, deduplicated by key, and what the user has read. */
import type { AlertRecord, AlertTarget } from '../../shared/domain.js';
import type { NewAlert } from '../alerts/port.js';
import type { AlertsTable } from './schema.js';
import type { Statements } from './statements.js';

type AlertRow = Pick<
  AlertsTable,
  'id' | 'kind' | 'title' | 'body' | 'created_at' | 'read' | 'target'
>;

const toRecord = (r: AlertRow): AlertRecord => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  createdAt: r.created_at,
  read: r.read === 1,
  target: JSON.parse(r.target) as AlertTarget,
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
        'INSERT OR IGNORE INTO alerts (dedup_key, kind, title, body, created_at, target) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(a.dedupKey, a.kind, a.title, a.body, a.createdAt, JSON.stringify(a.target));
    if (r.changes === 0) return null;
    return {
      id: Number(r.lastInsertRowid),
      kind: a.kind,
      title: a.title,
      body: a.body,
      createdAt: a.createdAt,
      read: false,
      target: a.target,
    };
  }

  list(q: { limit?: number; unreadOnly?: boolean } = {}): AlertRecord[] {
    return this.q
      .objects<AlertRow>(
        `SELECT id, kind, title, body, created_at, read, target FROM alerts ${q.unreadOnly ? 'WHERE read = 0' : ''}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(q.limit ?? 200)
      .map(toRecord);
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
