/**
 * Freshness under faults: print → alert when every webhook is lost, so only the safety net
 * (src/main/sync/safety-net.ts) can find the print, beside the same prints over the normal
 * webhook path. The app runs in demo mode on the embedded simulator with the default
 * cadence (2 s); each release prints at a random moment up to 2 s after its scheduled time,
 * so the poll phase is not aligned with the print. A third run creates the releases while
 * webhooks are already dropped, so the app first learns of them from the minute's near-window
 * re-read — before their print (then the net polls them) or after it (a print first seen
 * printed, which alerts all the same).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventDate } from '../src/shared/domain.js';
import { createAppService, type AppService } from '../src/main/service.js';
import { MemorySecretStore } from '../src/main/secrets/index.js';
import { createRng } from '../src/simulator/rng.js';
import { summarize } from './lib.js';

const SPACING_MS = 1_500;

async function control<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}`);
  return (await res.json()) as T;
}

interface MeasureOptions {
  /** Runs once the app has them all (known releases: the faults start then). */
  whenKnown?: () => Promise<unknown>;
  /** False: the releases are created while webhooks are already lost, so the app first
   * hears of them from the near-window re-read (a minute apart) — printed or not yet. */
  known?: boolean;
  /** How long after the last print an alert may still come. */
  waitMs?: number;
}

/** `n` HIGH releases, printed one after another; the delay of each print to its alert. */
async function measure(
  service: AppService,
  sim: string,
  n: number,
  seed: string,
  opts: MeasureOptions = {},
) {
  const rng = createRng(seed);
  const eventId = (await control<EventDate[]>(sim, 'GET', '/_sim/event-dates'))[0]?.eventId;
  const start = Date.now() + 15_000;
  const releases: EventDate[] = [];
  for (let i = 0; i < n; i++) {
    releases.push(
      await control<EventDate>(sim, 'POST', '/_sim/event-dates', {
        eventId,
        dateUtc: new Date(start + i * SPACING_MS).toISOString(),
        volatility: 'HIGH',
      }),
    );
  }
  const ids = new Set(releases.map((r) => r.id));
  const window = {
    from: new Date(start - 60_000).toISOString(),
    to: new Date(start + n * SPACING_MS + 60_000).toISOString(),
  };
  while (
    opts.known !== false &&
    (await service.api.listEventDates(window)).filter((d) => ids.has(d.id)).length < n
  )
    await new Promise((r) => setTimeout(r, 20));
  await opts.whenKnown?.();
  const alertedAt = new Map<string, number>();
  const off = service.on('alert', (a) => {
    if (a.kind === 'released' && a.target.type === 'eventDate')
      alertedAt.set(a.target.eventDateId, Date.now());
  });
  const printedAt = new Map<string, number>();
  for (const [i, ed] of releases.entries()) {
    const at = Date.parse(ed.dateUtc) + rng() * 2_000;
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    await control(sim, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: i });
    printedAt.set(ed.id, Date.now());
  }
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  while (alertedAt.size < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  off();
  const delays = releases.flatMap((ed) => {
    const a = alertedAt.get(ed.id);
    const p = printedAt.get(ed.id);
    return a !== undefined && p !== undefined ? [Math.max(0, a - p)] : [];
  });
  return { ...summarize(delays), missed: n - delays.length };
}

async function withDemoApp<T>(run: (service: AppService, sim: string) => Promise<T>) {
  const service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-bench-fresh-')),
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    demo: { autoplay: false, seed: 12 },
    // the grouping window would hold later alerts back; this measures the feed, not it
    alertDelivery: { coalesceMs: 0, maxPerMinute: 10_000 },
  });
  await service.start();
  try {
    return await run(service, service.simulatorUrl as string);
  } finally {
    await service.stop();
  }
}

const dropAll = (sim: string) =>
  control(sim, 'POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });

/** Releases created while every webhook is already lost: print → alert. */
export function benchUnknownFreshness(quick: boolean) {
  return withDemoApp(async (service, sim) => {
    await dropAll(sim);
    return measure(service, sim, quick ? 3 : 20, 'unknown', { known: false, waitMs: 90_000 });
  });
}

export function benchFreshness(quick: boolean) {
  const n = quick ? 3 : 40;
  return withDemoApp(async (service, sim) => {
    const normal = await measure(service, sim, n, 'normal');
    const dropped = await measure(service, sim, n, 'dropped', { whenKnown: () => dropAll(sim) });
    return { normal, dropped };
  });
}

// `npx tsx bench/freshness-bench.ts unknown`: that row alone, short.
if (process.argv[2] === 'unknown' && process.argv[1]?.endsWith('freshness-bench.ts')) {
  console.log(JSON.stringify(await benchUnknownFreshness(true)));
}
