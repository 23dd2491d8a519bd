// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Prints the app first learns about already printed, three real processes on loopback —
 * the simulator, the relay and the app core. Each alerts once, whichever path brings it
 * (the relay, the safety net's near-window re-read, the probe and catch-up after an API
 * outage, a backfill); one printed long before the app could see it (its clock jumped,
 * as after a sleep) alerts as late, silently. With every delivery dropped the state turns
 * "late" within the grace (+2 s) of the net's first find; with the API down and webhooks
 * flowing it says "API unavailable" with one reason.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { AlertReceipt, EventDate } from '../../../src/shared/domain.js';
import { registerWebhook } from '../../fixtures/webhooks.js';
import { spawnRelay, tempDir } from '../relay/helpers.js';
import {
  children,
  killChildren,
  sleepUntil,
  spawnLines,
  spawnSimulator,
  until,
  type Line,
} from './processes.js';

const KEYS = { id: 'late-public', secret: 'late-private' };
const RELAY = { secret: 'late-hook', token: 'late-desktop' };
/** The net's tuning: the near window re-read every 3 s (a minute for users), quick probes. */
const NET = { nearEveryMs: 3_000, webhookGraceMs: 10_000, maxBackoffMs: 1_000 };
afterAll(killChildren);

type AlertLine = Line & { id: string; kind: string; late: boolean; receipt: AlertReceipt };

describe('late prints: every path alerts once, the state tells the truth', () => {
  it('alerts prints first seen already printed, once, late ones silently', async () => {
    const { url: simUrl, control } = await spawnSimulator(KEYS, '43');
    const relay = await spawnRelay(['--port', '0', '--data', tempDir('mb-late-relay-')], {
      MACROBELL_RELAY_SECRET: RELAY.secret,
      MACROBELL_RELAY_TOKEN: RELAY.token,
    });
    children.push(relay.child);
    await registerWebhook({
      authUrl: `${simUrl}/auth`,
      apiUrl: `${simUrl}/calendar`,
      clientId: KEYS.id,
      clientSecret: KEYS.secret,
      url: `${relay.url}/hooks/${RELAY.secret}`,
    });
    const app = spawnLines(['test/integration/chaos/app-process.ts'], {
      CHAOS_DATA_DIR: tempDir('mb-late-app-'),
      CHAOS_PUBLIC_KEY: KEYS.id,
      CHAOS_PRIVATE_KEY: KEYS.secret,
      CHAOS_RELAY_TOKEN: RELAY.token,
      CHAOS_SAFETY_NET: JSON.stringify(NET),
      MACROBELL_AUTH_URL: `${simUrl}/auth`,
      MACROBELL_CALENDAR_URL: `${simUrl}/calendar`,
      MACROBELL_NEWS_URL: `${simUrl}/news`,
      MACROBELL_RELAY_URL: relay.url,
    });
    await until(() => app.lines.find((l) => l.t === 'ready'), 'the app', 60_000);
    await until(() => lastState(app.lines) === 'live', 'the app to be live');

    const eventId = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0]?.eventId as string;
    const create = (inMs: number) =>
      control<EventDate>('POST', '/_sim/event-dates', {
        eventId,
        dateUtc: new Date(Date.now() + inMs).toISOString(),
        volatility: 'HIGH',
        consensus: 4.1,
      });
    const print = async (ed: EventDate, actual: number) => {
      await sleepUntil(Date.parse(ed.dateUtc));
      await control('PATCH', `/_sim/event-dates/${ed.id}`, { actual });
    };
    const alerts = () => app.lines.filter((l): l is AlertLine => l.t === 'alert');
    const alertOf = (id: string) =>
      until(() => alerts().find((a) => a.id === id && a.kind === 'released'), `alert ${id}`);
    const dropAll = () => control('POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });

    // ── 0. the fast path: a webhook via the relay, with the relay's receive time ──────
    const r0 = await create(2_000);
    await print(r0, 4.2);
    const a0 = await alertOf(r0.id);
    expect(a0.late).toBe(false);
    expect(a0.receipt.path).toBe('relay');
    expect(a0.receipt.relayReceivedAt).toBeGreaterThanOrEqual(Date.parse(r0.dateUtc));
    expect(a0.receipt.appliedAt).toBeGreaterThanOrEqual(a0.receipt.relayReceivedAt as number);

    // ── 1. created and printed while every delivery is dropped: the near re-read ─────
    await dropAll();
    const droppedAt = Date.now();
    const r1 = await create(6_000);
    await print(r1, 4.7);
    const a1 = await alertOf(r1.id);
    expect(a1.receipt.path).toBe('poll');
    expect(a1.late).toBe(false);
    // blind: "late" within the grace (+2 s) of the net's first find, not at a later round
    const firstFind = app.lines.find(
      (l) => l.t === 'changes' && l.at >= droppedAt && sources(l).includes('poll'),
    ) as Line;
    const lateLine = await until(
      () => app.lines.find((l) => l.t === 'state' && l.state === 'late' && l.at >= droppedAt),
      'the late state',
    );
    expect(lateLine.at - firstFind.at).toBeLessThanOrEqual(NET.webhookGraceMs + 2_000);

    // ── 2. printed inside an API outage, deliveries still dropped: catch-up ──────────
    const r2 = await create(3_000);
    await control('POST', '/_sim/faults', {
      api: { status: 503, count: 1_000_000 },
      deliveries: { drop: 1_000_000 },
    });
    await print(r2, 0.6);
    await until(() => lastState(app.lines) === 'offline', 'offline during the outage');
    await control('DELETE', '/_sim/faults');
    await dropAll();
    const a2 = await alertOf(r2.id);
    expect(a2.late).toBe(false);

    // ── 3. known, printed while blind, seen 20 minutes later (the app's clock jumped) ─
    const r3 = await create(3_000);
    await until(() => foundBy(app.lines, r3.id), 'the net to know r3');
    await control('POST', '/_sim/faults', {
      api: { status: 503, count: 1_000_000 },
      deliveries: { drop: 1_000_000 },
    });
    await print(r3, 2.0);
    app.send({ cmd: 'advance', ms: 20 * 60_000 });
    await control('DELETE', '/_sim/faults');
    await dropAll();
    const a3 = await alertOf(r3.id);
    expect(a3.late, JSON.stringify(a3)).toBe(true);
    const shown = await until(
      () =>
        app.lines.find(
          (l) => l.t === 'notification' && (l.alertIds as number[]).length > 0 && l.at >= a3.at,
        ),
      'the late notification',
    );
    expect(shown.silent).toBe(true);

    // ── 4. every path sees them all again: nothing alerts twice ──────────────────────
    await control('DELETE', '/_sim/faults');
    app.send({ cmd: 'sync' });
    await until(() => app.lines.find((l) => l.t === 'synced'), 'a backfill');

    // ── 5. the API down, webhooks flowing: "API unavailable", one stable reason ──────
    await control('POST', '/_sim/faults', { api: { status: 503, count: 1_000_000 } });
    const apiDownFrom = Date.now();
    for (let i = 0; i < 8; i++) {
      await control('PATCH', `/_sim/event-dates/${r0.id}`, { consensus: 4 + i / 10 });
      await sleepUntil(Date.now() + 700);
    }
    const during = app.lines.filter((l) => l.t === 'state' && l.at >= apiDownFrom);
    const firstDown = during.findIndex((l) => l.state === 'apiDown');
    expect(firstDown, JSON.stringify(during)).toBeGreaterThanOrEqual(0);
    const after = during.slice(firstDown);
    expect(new Set(after.map((l) => `${l.state}: ${l.reason}`)).size, JSON.stringify(after)).toBe(
      1,
    );
    expect(String(after[0]?.reason)).toMatch(/HTTP 503.*webhooks still arrive/);
    await control('DELETE', '/_sim/faults');

    app.child.kill('SIGTERM');
    const history = await until(() => app.lines.find((l) => l.t === 'history'), 'the history');
    const released = (history.alerts as { kind: string; id: string }[]).filter(
      (a) => a.kind === 'released',
    );
    for (const r of [r0, r1, r2, r3]) {
      expect(
        released.filter((a) => a.id === r.id),
        r.id,
      ).toHaveLength(1);
    }
  }, 180_000);
});

function lastState(lines: Line[]): unknown {
  return lines.filter((l) => l.t === 'state').at(-1)?.state;
}

function sources(l: Line): string[] {
  return (l.items as { source: string }[]).map((i) => i.source);
}

function foundBy(lines: Line[], id: string): boolean {
  return lines.some(
    (l) => l.t === 'changes' && (l.items as { id: string | null }[]).some((i) => i.id === id),
  );
}
