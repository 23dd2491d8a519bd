/**
 * Parsed event dates kept in memory, so the calendar window the UI asks for again and again
 * is not rebuilt from JSON every time. An entry is served only while the row's lastUpdated
 * still matches; the store also drops an entry on every write to that row, and everything
 * when a transaction rolls back. Bounded: least recently used entries go first.
 */
import type { EventDate } from '../../shared/domain.js';

export class RecordCache {
  private readonly entries = new Map<string, { lastUpdated: number; record: EventDate }>();

  constructor(private readonly capacity = 5000) {}

  /** True when `get` would hit (no recency bump: called from SQL for every row). */
  has(id: string, lastUpdated: number): boolean {
    return this.entries.get(id)?.lastUpdated === lastUpdated;
  }

  get(id: string, lastUpdated: number): EventDate | undefined {
    const hit = this.entries.get(id);
    if (!hit || hit.lastUpdated !== lastUpdated) return undefined;
    // Re-insert to mark it recently used (Map keeps insertion order).
    this.entries.delete(id);
    this.entries.set(id, hit);
    return hit.record;
  }

  set(id: string, lastUpdated: number, record: EventDate): void {
    this.entries.delete(id);
    this.entries.set(id, { lastUpdated, record });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }
}
