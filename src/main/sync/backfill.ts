/**
 * Backfill: bring the cache up to date from the APIs — on start, on reconnect, after a
 * relay `reset`, and on "Sync now". Reports progress for the status bar.
 */
import type { Logger } from 'pino';
import type { BackfillProgress, EventDate, Settings } from '../../shared/domain.js';
import type { ChangeApplier } from './applier.js';
import type { Raw, SyncCalendarApi, SyncNewsApi, SyncStore } from './ports.js';

const DAY_MS = 86_400_000;
const CHUNK_DAYS = 7;
const MAX_POST_PAGES = 3;
const EVENT_FETCH_CONCURRENCY = 4;

export interface BackfillDeps {
  store: SyncStore;
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  applier: ChangeApplier;
  settings: () => Settings;
  onProgress: (p: BackfillProgress) => void;
  logger: Logger;
  now?: () => number;
  /**
   * Aborted when the app stops: the run ends after the request in flight instead of reading
   * every remaining window (a slow service made quitting wait ~40 s for the whole backfill).
   */
  signal?: AbortSignal;
}

/** Split [from, to) into chunks of at most `days` days. */
export function dayChunks(fromMs: number, toMs: number, days: number): [string, string][] {
  const out: [string, string][] = [];
  for (let t = fromMs; t < toMs; t += days * DAY_MS) {
    out.push([
      new Date(t).toISOString(),
      new Date(Math.min(toMs, t + days * DAY_MS)).toISOString(),
    ]);
  }
  return out;
}

export async function runBackfill(deps: BackfillDeps): Promise<void> {
  const now = (deps.now ?? Date.now)();
  const settings = deps.settings();
  const fromMs = startOfUtcDay(now - settings.backfill.daysBack * DAY_MS);
  const toMs = startOfUtcDay(now + (settings.backfill.daysAhead + 1) * DAY_MS);
  const chunks = dayChunks(fromMs, toMs, CHUNK_DAYS);
  const cultures = settings.cultures;
  const total = 1 + chunks.length + 1 + cultures.length * MAX_POST_PAGES;
  let done = 0;
  const step = (phase: string) => {
    deps.signal?.throwIfAborted();
    deps.onProgress({ running: true, phase, done, total });
  };
  // after each answer: a stopped app writes nothing more into the store it is closing
  const answered = <T>(value: T): T => {
    deps.signal?.throwIfAborted();
    return value;
  };

  step('Categories');
  const categories = answered(await deps.calendar.categories());
  deps.store.transaction(() => deps.store.upsertCategories(categories));
  done++;

  const seenEventIds = new Set<string>();
  for (const [from, to] of chunks) {
    step(`Calendar ${from.slice(0, 10)} → ${to.slice(0, 10)}`);
    const items = answered(await deps.calendar.eventDates({ from, to }));
    deps.applier.applyEventDates(items, 'backfill');
    removeVanished(deps, items, from, to, now);
    items.forEach((i) => seenEventIds.add(i.value.eventId));
    done++;
  }

  step('Event details');
  const missing = [...seenEventIds].filter((id) => deps.store.getEvent(id) === null);
  await mapLimit(missing, EVENT_FETCH_CONCURRENCY, async (id) => {
    let e: Awaited<ReturnType<typeof deps.calendar.event>>;
    try {
      e = await deps.calendar.event(id);
    } catch (err) {
      return void deps.logger.warn({ id, err }, 'event details unavailable');
    }
    answered(e);
    deps.store.transaction(() => deps.store.upsertEvent(e.value, e.raw));
  });
  done++;

  const oldestWanted = now - settings.backfill.daysBack * DAY_MS;
  for (const culture of cultures) {
    for (let page = 1; page <= MAX_POST_PAGES; page++) {
      step(`News ${culture} page ${page}`);
      const feed = answered(await deps.news.feed(culture, page));
      deps.applier.applyPosts(feed.items, 'backfill');
      done++;
      const oldest = feed.items.at(-1)?.value.publicationDate;
      const exhausted = feed.items.length === 0 || page * feed.pageSize >= feed.total;
      if (exhausted || (oldest && Date.parse(oldest) < oldestWanted)) {
        done += MAX_POST_PAGES - page;
        break;
      }
    }
  }
  deps.store.transaction(() => deps.store.setSyncState('backfill.lastAt', String(now)));
  deps.onProgress({ running: false, phase: 'Up to date', done: total, total });
}

/** Event dates the server no longer lists in a window it returned in full are gone. */
function removeVanished(
  deps: BackfillDeps,
  items: Raw<EventDate>[],
  from: string,
  to: string,
  now: number,
): void {
  const fetched = new Set(items.map((i) => i.value.id));
  const vanished = deps.store
    .listEventDates({ from, to })
    .filter((ed) => !fetched.has(ed.id) && Date.parse(ed.dateUtc) < Date.parse(to));
  if (vanished.length > 0) {
    deps.applier.removeMissing(
      vanished.map((ed) => ({ id: ed.id, eventId: ed.eventId })),
      Math.floor(now / 1000),
      'backfill',
    );
  }
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

async function mapLimit<T>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
