/**
 * Tombstones: a deleted event date or post remembers its deletion's `lastUpdated`, so an
 * older update arriving late (a retried webhook, a page fetched before the delete) cannot
 * bring it back. A deletion stamped in the future (trusted-stamp.ts) keeps nothing away:
 * when the service still lists the record, it comes back.
 */
import type { TombstonesTable } from './schema.js';
import type { Statements } from './statements.js';
import { trustedStamp } from './trusted-stamp.js';

export type TombstoneKind = TombstonesTable['kind'];

export class Tombstones {
  constructor(
    private readonly q: Statements,
    private readonly now: () => number,
  ) {}

  /** Whether a deletion at or after `lastUpdated` is recorded (with a believable stamp). */
  has(kind: TombstoneKind, id: string, lastUpdated: number, culture = ''): boolean {
    const last = this.stamp(kind, id, culture);
    return last !== undefined && last >= lastUpdated && trustedStamp(last, this.now());
  }

  /** Whether the record's deletion carries a stamp from the future (forged or replayed). */
  untrusted(kind: TombstoneKind, id: string, culture = ''): boolean {
    const last = this.stamp(kind, id, culture);
    return last !== undefined && !trustedStamp(last, this.now());
  }

  private stamp(kind: TombstoneKind, id: string, culture: string): number | undefined {
    return this.q
      .values<TombstonesTable['last_updated']>(
        'SELECT last_updated FROM tombstones WHERE kind = ? AND id = ? AND culture = ?',
      )
      .get(kind, id, culture);
  }

  write(kind: TombstoneKind, id: string, culture: string, lastUpdated: number): void {
    this.q
      .objects(
        `INSERT INTO tombstones (kind, id, culture, last_updated, deleted_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(kind, id, culture) DO UPDATE SET last_updated = max(last_updated, excluded.last_updated), deleted_at = excluded.deleted_at`,
      )
      .run(kind, id, culture, lastUpdated, this.now());
  }

  /** The record exists again (a newer write): its old deletion no longer applies. */
  clear(kind: TombstoneKind, id: string, culture = ''): void {
    this.q
      .objects('DELETE FROM tombstones WHERE kind = ? AND id = ? AND culture = ?')
      .run(kind, id, culture);
  }
}
