// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Trust the feed: the safety net finds prints the webhooks lose, the connection state
 * tells the truth (late, offline, live again) and the app catches up by itself — all
 * against the real simulator, the real relay and the real core.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppStatus, EventDate } from '../../../src/shared/domain.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { startRelay } from '../../../src/relay/server.js';
import { simJson, startCore, type CoreHarness } from './harness.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});
const dir = () => mkdtempSync(join(tmpdir(), 'mb-trust-'));
const window = () => ({
  from: new Date(Date.now() - 86_400_000).toISOString(),
  to: new Date(Date.now() + 86_400_000).toISOString(),
});
const FAST = { burstIntervalSec: 0.5, burstLeadSec: 2, burstTimeoutSec: 60, baseIntervalSec: 300 };

async function state(service: AppService): Promise<AppStatus['connection']> {
  return (await service.api.getStatus()).connection;
}

function simUrl(service: AppService): RunningSimulator {
  return { url: service.simulatorUrl } as RunningSimulator;
}

/** A HIGH-impact release `inMs` from now, on an event the simulator has. */
async function createRelease(sim: RunningSimulator, inMs: number): Promise<EventDate> {
  const all = await simJson<EventDate[]>(sim, 'GET', '/_sim/event-dates');
  return simJson<EventDate>(sim, 'POST', '/_sim/event-dates', {
    eventId: (all[0] as EventDate).eventId,
    dateUtc: new Date(Date.now() + inMs).toISOString(),
    volatility: 'HIGH',
  });
}

async function printAtItsTime(sim: RunningSimulator, ed: EventDate, actual: number) {
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(ed.dateUtc)), {
    timeout: 30_000,
    interval: 50,
  });
  await simJson(sim, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual });
}

type ServiceOptions = Parameters<typeof createAppService>[0];

async function demoService(
  tuning: ServiceOptions['safetyNet'] = {},
  extra: Partial<ServiceOptions> = {},
) {
  const service = await createAppService({
    ...extra,
    dataDir: dir(),
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    demo: { autoplay: false, seed: 21 },
    safetyNet: { webhookGraceMs: 1_500, ...tuning },
  });
  cleanup.push(() => service.stop());
  await service.api.updateSettings({ polling: FAST });
  await service.start();
  return service;
}

describe('the safety net, with the webhooks lost', () => {
  it('prints a known release by polling, alerts once, says "webhooks late", and clears', async () => {
    const service = await demoService();
    const sim = simUrl(service);
    expect(await state(service)).toMatchObject({ state: 'live', transport: 'webhooks' });
    const ed = await createRelease(sim, 3_000);
    // the *_created webhook still arrives: the app knows the release before it prints
    await vi.waitFor(
      async () =>
        expect((await service.api.listEventDates(window())).map((d) => d.id)).toContain(ed.id),
      { timeout: 10_000, interval: 50 },
    );
    await simJson(sim, 'POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    await printAtItsTime(sim, ed, 275);
    await vi.waitFor(
      async () => {
        const row = (await service.api.listEventDates(window())).find((d) => d.id === ed.id);
        expect(row?.actual).toBe(275);
      },
      { timeout: 10_000, interval: 50 },
    );
    // no webhook confirmed what the net found: the state stops saying plain "Live"
    await vi.waitFor(async () => expect((await state(service)).state).toBe('late'), {
      timeout: 10_000,
      interval: 50,
    });
    expect((await state(service)).reason).toMatch(/webhooks are not arriving/i);

    // webhooks flow again: the next one clears the state
    await simJson(sim, 'DELETE', '/_sim/faults');
    const other = (await simJson<EventDate[]>(sim, 'GET', '/_sim/event-dates')).find(
      (d) => d.id !== ed.id && d.actual === null,
    ) as EventDate;
    await simJson(sim, 'PATCH', `/_sim/event-dates/${other.id}`, { consensus: 1.25 });
    await vi.waitFor(async () => expect((await state(service)).state).toBe('live'), {
      timeout: 10_000,
      interval: 50,
    });
    const alerts = (await service.api.listAlerts({ limit: 100 })).filter(
      (a) =>
        a.kind === 'released' && a.target.type === 'eventDate' && a.target.eventDateId === ed.id,
    );
    expect(alerts).toHaveLength(1);
  });

  it('learns of a release whose *_created webhook was lost before it prints', async () => {
    const service = await demoService({ nearEveryMs: 1_000 });
    const sim = simUrl(service);
    await simJson(sim, 'POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    const ed = await createRelease(sim, 6_000);
    await vi.waitFor(
      async () =>
        expect((await service.api.listEventDates(window())).map((d) => d.id)).toContain(ed.id),
      { timeout: 5_000, interval: 50 },
    );
    const known = Date.now();
    expect(known).toBeLessThan(Date.parse(ed.dateUtc));
    await printAtItsTime(sim, ed, 1.5);
    await vi.waitFor(
      async () => {
        const alerts = await service.api.listAlerts({ limit: 50 });
        expect(
          alerts.some(
            (a) =>
              a.kind === 'released' &&
              a.target.type === 'eventDate' &&
              a.target.eventDateId === ed.id,
          ),
        ).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('waking from sleep', () => {
  it('catches up on a release printed while the machine slept, and alerts it with sound', async () => {
    // The monotonic clock stands still while a machine sleeps; the wall clock runs on.
    let slept = 0;
    const service = await demoService(
      // the minute's re-read is out of the way: only the wake can find the print
      { nearEveryMs: 3_600_000 },
      { monotonicNow: () => performance.now() - slept },
    );
    const sim = simUrl(service);
    // asleep: no webhook reaches the machine
    await simJson(sim, 'POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    // scheduled and printed during the sleep; the app never heard of it
    const ed = await createRelease(sim, 2_000);
    await printAtItsTime(sim, ed, 275);
    const catchUps: number[] = [];
    const stopListening = service.on('backfill', (p) => p.running && catchUps.push(p.done));
    cleanup.push(async () => stopListening());
    const woke = Date.now();
    slept += 10 * 60_000;
    await vi.waitFor(
      async () => {
        const alerts = await service.api.listAlerts({ limit: 50 });
        const mine = alerts.find(
          (a) =>
            a.kind === 'released' &&
            a.target.type === 'eventDate' &&
            a.target.eventDateId === ed.id,
        );
        expect(mine).toBeDefined();
        // a print seconds old is news, not history: alerted with sound, not as a late print
        expect(mine?.late ?? false).toBe(false);
      },
      { timeout: 15_000, interval: 100 },
    );
    // found by the catch-up the wake started (a backfill run), within a tick of waking
    expect(catchUps.length).toBeGreaterThan(0);
    expect(Date.now() - woke).toBeLessThan(15_000);
    const row = (await service.api.listEventDates(window())).find((d) => d.id === ed.id);
    expect(row?.actual).toBe(275);
  });
});

describe('outages', () => {
  let h: CoreHarness;
  afterEach(() => h?.close());

  it('goes Offline while the service fails, back by itself within 10 s, and catches up', async () => {
    h = await startCore({ service: { safetyNet: { nearEveryMs: 1_000 } } });
    await h.service.api.updateSettings({ polling: FAST });
    await h.service.start();
    expect((await state(h.service)).state).toBe('live');
    await simJson(h.sim, 'POST', '/_sim/faults', { api: { status: 503, count: 1_000_000 } });
    await vi.waitFor(async () => expect((await state(h.service)).state).toBe('offline'), {
      timeout: 15_000,
      interval: 50,
    });
    const offline = await h.service.api.getStatus();
    expect(offline.connection.reason).toBe('The calendar service answered HTTP 503');
    expect(offline.online).toBe(false);
    // a release is scheduled during the outage (its webhook has nowhere to go: polling)
    const ed = await createRelease(h.sim, 3_600_000);
    await simJson(h.sim, 'DELETE', '/_sim/faults');
    const cleared = Date.now();
    await vi.waitFor(async () => expect((await state(h.service)).state).toBe('live'), {
      timeout: 10_000,
      interval: 50,
    });
    expect(Date.now() - cleared).toBeLessThan(10_000);
    const back = await h.service.api.getStatus();
    expect(back.lastError).toBeNull();
    expect(back.lastSyncAt).toBeGreaterThanOrEqual(cleared);
    // the catch-up re-sync brings what changed meanwhile, without a button
    await vi.waitFor(
      async () =>
        expect((await h.service.api.listEventDates(window())).map((d) => d.id)).toContain(ed.id),
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('bad items on the relay', () => {
  it('counts a notification it cannot apply, moves past it and applies the next', async () => {
    const relay = await startRelay({
      dataDir: dir(),
      secret: 'trust-secret',
      token: 'trust-token',
    });
    cleanup.push(() => relay.close());
    const h = await startCore({ service: { env: { MACROBELL_RELAY_URL: relay.url } } });
    await h.secrets.set('relayToken', 'trust-token');
    cleanup.push(() => h.close());
    await h.service.start();
    await vi.waitFor(async () => expect((await state(h.service)).state).toBe('live'), {
      timeout: 10_000,
      interval: 50,
    });
    const target = (await h.service.api.listEventDates(window())).find(
      (d) => d.actual === null,
    ) as EventDate;
    const send = (body: unknown) =>
      fetch(relay.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // valid JSON, not a usable notification: an id that is not a string
    expect((await send({ type: 'eventDate_updated', eventDateId: 42, changes: [] })).status).toBe(
      204,
    );
    const updated = await simJson<EventDate>(h.sim, 'PATCH', `/_sim/event-dates/${target.id}`, {
      actual: 9.5,
    });
    await send({
      type: 'eventDate_updated',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: updated.lastUpdated,
      changes: [{ key: 'actual', value: 9.5 }],
    });
    await vi.waitFor(
      async () => {
        const row = (await h.service.api.listEventDates(window())).find((d) => d.id === target.id);
        expect(row?.actual).toBe(9.5);
      },
      { timeout: 10_000, interval: 50 },
    );
    const status = await h.service.api.getStatus();
    expect(status.badNotifications).toBe(1);
    expect(status.connection.state).toBe('live');
    expect(status.relay?.lastEventId).toBe('2');
  });
});
