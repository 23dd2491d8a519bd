/**
 * Store figures: one-week calendar query over 100,000 cached event dates, full-text
 * search over 50,000 cached posts, and RSS with both cached.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventDate, Post } from '../src/shared/domain.js';
import { openStore, type Store } from '../src/main/store/index.js';
import { createRng, pick } from '../src/simulator/rng.js';
import { nowMs, summarize } from './lib.js';

const DAY = 86_400_000;
const COUNTRIES = ['US', 'EMU', 'DE', 'UK', 'JP', 'CN', 'CA', 'AU', 'NZ', 'CH'];
const CURRENCY: Record<string, string> = {
  US: 'USD',
  EMU: 'EUR',
  DE: 'EUR',
  UK: 'GBP',
  JP: 'JPY',
  CN: 'CNY',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  CH: 'CHF',
};
const MARKET =
  'inflation payrolls yields dollar euro gold oil rally slump forecast central bank rate decision growth manufacturing services consumer confidence housing exports tariffs equities bonds volatility guidance hawkish dovish'.split(
    ' ',
  );
// A news vocabulary of a few thousand words, used with a Zipf-like skew like real text:
// function words take the head of the distribution (each is in nearly every post, as
// "the" is), market terms sit in the middle ranks (each in roughly 5–35 % of posts, as
// "inflation" is in a markets feed), and made-up words fill the long tail.
const FUNCTION_WORDS =
  'the of to and a in that is for on with as by at from it was be are has said its an which will after but not were more this than'.split(
    ' ',
  );
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'zi',
  'pe',
  'sa',
  'di',
  'fu',
  'go',
  'he',
  'ja',
];
const FILLER = Array.from(
  { length: 3000 },
  (_, i) =>
    SYLLABLES[i % 15]! + SYLLABLES[Math.floor(i / 15) % 15]! + SYLLABLES[Math.floor(i / 225) % 15]!,
);
/** Rank of the j-th market term: from 50 to about 700. */
const marketRank = (j: number) => 50 + 25 * j;
const WORDS: string[] = [...FUNCTION_WORDS];
for (let f = 0; WORDS.length < FUNCTION_WORDS.length + FILLER.length + MARKET.length;) {
  const j = MARKET.findIndex((_, k) => marketRank(k) === WORDS.length);
  WORDS.push(j >= 0 ? (MARKET[j] as string) : (FILLER[f++] as string));
}
const zipf = (rng: () => number) =>
  WORDS[Math.min(WORDS.length - 1, Math.floor(Math.pow(rng(), 3) * WORDS.length))] as string;

export function syntheticEventDate(
  i: number,
  t0: number,
  spanDays: number,
  rng: () => number,
): EventDate {
  const country = pick(rng, COUNTRIES);
  const date = t0 + Math.floor(rng() * spanDays * DAY);
  return {
    id: `ed-${i}`,
    eventId: `ev-${i % 2000}`,
    dateUtc: new Date(date).toISOString(),
    periodDateUtc: null,
    periodType: 'MONTH',
    actual: date < t0 + (spanDays / 2) * DAY ? Math.round(rng() * 1000) / 10 : null,
    revised: null,
    consensus: 1.2,
    ratioDeviation: null,
    previous: 1.1,
    isBetterThanExpected: null,
    name: `Indicator ${i % 2000}`,
    countryCode: country,
    currencyCode: CURRENCY[country] as string,
    unit: '%',
    potency: 'ZERO',
    volatility: pick(rng, ['LOW', 'MEDIUM', 'HIGH', 'NONE']),
    isAllDay: false,
    isTentative: false,
    isPreliminary: false,
    isReport: false,
    isSpeech: false,
    lastUpdated: 1,
  };
}

export function syntheticPost(i: number, rng: () => number): Post {
  const words = (n: number) => Array.from({ length: n }, () => zipf(rng)).join(' ');
  return {
    id: `p-${i}`,
    culture: 'en-US',
    title: `${words(6)} ${i}`,
    summary: words(20),
    contentHtml: `<p>${words(120)}</p><p>${words(120)}</p>`,
    publicationDate: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    updateDate: null,
    url: null,
    imageUrl: null,
    authorName: 'Bench',
    companyName: null,
    categories: [],
    tags: [],
  };
}

export function fillStore(store: Store, eventDates: number, posts: number): void {
  const rng = createRng('bench-store');
  const t0 = Date.UTC(2026, 0, 1);
  // ~60 releases a day, as on a real calendar: 100,000 is about four and a half years of them
  const spanDays = Math.max(7, Math.round(eventDates / 60));
  for (let start = 0; start < eventDates; start += 5000) {
    store.transaction(() => {
      for (let i = start; i < Math.min(eventDates, start + 5000); i++)
        store.upsertEventDate(syntheticEventDate(i, t0, spanDays, rng), {});
    });
  }
  for (let start = 0; start < posts; start += 2000) {
    store.transaction(() => {
      for (let i = start; i < Math.min(posts, start + 2000); i++)
        store.upsertPost(syntheticPost(i, rng), {});
    });
  }
}

export async function benchStore(quick: boolean) {
  const eventDates = quick ? 10_000 : 100_000;
  const posts = quick ? 5_000 : 50_000;
  const store = openStore({
    path: join(mkdtempSync(join(tmpdir(), 'mb-bench-store-')), 'bench.db'),
  });
  const fillStart = nowMs();
  fillStore(store, eventDates, posts);
  const fillMs = nowMs() - fillStart;
  // The app at rest after the sync: its idle-time WAL checkpoint has run (a write path
  // that never yields, like this fill, leaves it to a later quiet moment).
  await new Promise((r) => setTimeout(r, 1_500));

  const t0 = Date.UTC(2026, 0, 1);
  const spanDays = Math.max(7, Math.round(eventDates / 60));
  const weekly: number[] = [];
  for (let k = 0; k < 200; k++) {
    const from = t0 + ((k * 3) % Math.max(1, spanDays - 7)) * DAY;
    const s = nowMs();
    store.listEventDates({
      from: new Date(from).toISOString(),
      to: new Date(from + 7 * DAY).toISOString(),
    });
    weekly.push(nowMs() - s);
  }
  const rowsPerWeek = store.listEventDates({
    from: new Date(t0).toISOString(),
    to: new Date(t0 + 7 * DAY).toISOString(),
  }).length;
  // What traders type: a market term and another word of the news (two terms, the last
  // one prefix-expanded as while typing). Worst case beside it: a term in nearly every
  // post (a function word), which bm25 must count across the whole index.
  const timedSearch = (query: (k: number) => string) => {
    const out: number[] = [];
    for (let k = 0; k < 200; k++) {
      const s = nowMs();
      store.searchPosts({ query: query(k), limit: 20 });
      out.push(nowMs() - s);
    }
    return out;
  };
  const search = timedSearch((k) => `${MARKET[k % MARKET.length]} ${WORDS[60 + ((k * 37) % 400)]}`);
  const searchWorst = timedSearch((k) => `${FUNCTION_WORDS[k % 5]} ${MARKET[k % MARKET.length]}`);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  store.close();
  return {
    eventDates,
    posts,
    fillMs,
    rowsPerWeek,
    weekly: summarize(weekly),
    search: summarize(search),
    searchWorst: summarize(searchWorst),
    rssMb,
  };
}

/** Applying notifications through the real apply path (store + alerts), per second. */
export async function benchApply(quick: boolean) {
  const { ChangeApplier } = await import('../src/main/sync/applier.js');
  const { AlertsEngine } = await import('../src/main/alerts/index.js');
  const { silentLogger } = await import('../src/node/log/logger.js');
  const { DEFAULT_ALERT_RULES } = await import('../src/shared/domain.js');
  const n = quick ? 2_000 : 20_000;
  const store = openStore({
    path: join(mkdtempSync(join(tmpdir(), 'mb-bench-apply-')), 'apply.db'),
  });
  const rng = createRng('bench-apply');
  const t0 = Date.UTC(2026, 0, 1);
  store.transaction(() => {
    for (let i = 0; i < n; i++) store.upsertEventDate(syntheticEventDate(i, t0, 30, rng), {});
  });
  const alerts = new AlertsEngine({
    store,
    rules: () => DEFAULT_ALERT_RULES,
    timeZone: () => 'UTC',
  });
  const never = async () => {
    throw new Error('not used');
  };
  const applier = new ChangeApplier({
    store,
    calendar: { eventDates: never, eventDate: never, event: never, categories: never },
    news: { post: never, feed: never },
    alerts,
    logger: silentLogger(),
    cultures: () => ['en-US'],
  });
  const payload = (i: number, v: number) => ({
    type: 'eventDate_updated',
    eventDateId: `ed-${i}`,
    eventId: `ev-${i % 2000}`,
    lastUpdated: 10 + v,
    changes: [{ key: 'consensus', value: i + v }],
  });
  // Each phase starts from an app at rest: its idle-time WAL checkpoint has run.
  const rest = () => new Promise((r) => setTimeout(r, 1_500));
  await rest();
  // one transaction per notification
  let start = nowMs();
  for (let i = 0; i < n; i++) await applier.applyNotification(payload(i, 1), 'relay');
  const ms = nowMs() - start;
  await rest();
  // a burst as the relay consumer applies it: everything already received, one transaction
  start = nowMs();
  for (let i = 0; i < n; i += 100) {
    await applier.applyMany(
      Array.from({ length: Math.min(100, n - i) }, (_, k) => ({ payload: payload(i + k, 2) })),
      'relay',
    );
  }
  const batchedMs = nowMs() - start;
  applier.cancelPending();
  await applier.settle().catch(() => undefined);
  alerts.stop();
  store.close();
  return { n, perSec: (n / ms) * 1000, batchedPerSec: (n / batchedMs) * 1000 };
}
