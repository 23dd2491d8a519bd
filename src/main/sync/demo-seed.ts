/**
 * The demo's first view on an empty data folder: the calendar window taken straight from the
 * embedded simulator's generated world (the JSON its API would serve), validated as the
 * API's answer is and applied as a backfill, before the first token exchange. The first
 * rows then need no network round trip; the backfill that follows reads the same ids from
 * the service and replaces them in place (an older update never wins), so nothing doubles.
 */
import type { Logger } from 'pino';
import type { Settings } from '../../shared/domain.js';
import { eventDateWireSchema, toEventDate } from '../../shared/wire.js';
import { many } from '../api/validate.js';
import type { DemoMarket } from '../demo.js';
import type { ChangeApplier } from './applier.js';

const DAY_MS = 86_400_000;

export interface DemoSeedDeps {
  store: { counts(): { eventDates: number } };
  applier: Pick<ChangeApplier, 'applyEventDates'>;
  simulator: Pick<DemoMarket, 'eventDatesJson'>;
  settings: () => Settings;
  now: () => number;
  logger: Pick<Logger, 'warn' | 'info'>;
}

/** Seeds the window the backfill fills (whole UTC days) when the cache holds no release. */
export function seedFromDemo(d: DemoSeedDeps): number {
  if (d.store.counts().eventDates > 0) return 0;
  const s = d.settings();
  const now = d.now();
  const day = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
  const from = day(now - s.backfill.daysBack * DAY_MS);
  const to = day(now + (s.backfill.daysAhead + 1) * DAY_MS);
  const json = d.simulator.eventDatesJson(from, to, s.language);
  const items = many(eventDateWireSchema, json, 'eventDates (demo seed)', toEventDate, (e, why) =>
    d.logger.warn({ endpoint: e, why }, 'a demo release left out of the seed'),
  );
  d.applier.applyEventDates(items, 'backfill');
  d.logger.info({ eventDates: items.length }, 'demo: first view seeded from the simulator');
  return items.length;
}
