/**
 * Figures a notification brought that no read of the service confirmed (store/event-dates.ts
 * `unconfirmed`): when the service's own read replaces one, what it becomes — the release
 * itself over that figure's alert, or, where the service holds no print, its withdrawal.
 */
import type { ChangeSource, DomainChange, EventDate } from '../../shared/domain.js';

/**
 * `corrected` over a figure only a notification brought (the service never confirmed it):
 * the new figure is the release itself, alerted as one over that figure's alert (replaced
 * in place) — never "corrected, was 999".
 */
export function asRelease(change: DomainChange, unconfirmedActual: number): DomainChange {
  if (change.kind !== 'corrected' || change.eventDate.actual === null) return change;
  return {
    kind: 'released',
    eventDate: change.eventDate,
    source: change.source,
    replaces: unconfirmedActual,
  };
}

/**
 * The service's values back over what it never said: no alert, except that a print it
 * contradicts (which may have alerted) is followed by a correction.
 */
export function markRestores(
  changes: DomainChange[],
  previous: EventDate | null,
  ed: EventDate,
  source: ChangeSource,
  restores: WeakSet<DomainChange>,
): void {
  const unconfirmed = previous?.actual ?? null;
  const contradicted = unconfirmed !== null && unconfirmed !== ed.actual;
  changes.forEach((c) => {
    const news = c.kind === 'corrected' || (c.kind === 'released' && ed.actual !== null);
    if (!(contradicted && news)) restores.add(c);
  });
  // The service holds no print: the alert the notification's figure raised is withdrawn.
  if (contradicted && ed.actual === null)
    changes.push({
      kind: 'corrected',
      eventDate: ed,
      previousActual: unconfirmed,
      source,
      unconfirmed: true,
    });
}

/**
 * Whether a committed change may alert: never a restore (the service's values back), and
 * from a backfill (which re-reads history) only a print (the engine drops stale ones).
 */
export function alertable(change: DomainChange, restores: WeakSet<DomainChange>): boolean {
  if (restores.has(change)) return false;
  return change.source !== 'backfill' || change.kind === 'released';
}
