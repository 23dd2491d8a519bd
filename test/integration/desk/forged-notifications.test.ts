// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * A leaked webhook secret cannot pin the desk's feed: a forged `eventDate_updated` or
 * `eventDate_deleted` (posted to the relay with the real secret) reaches the app, and the
 * next read from the service puts its values back, whatever the stamp — far future, now,
 * or now + 119 s (within the clock-skew allowance, issue #35): what a notification brings
 * is provisional until the service's read confirms it. A forged print that alerted is
 * withdrawn in place (never "corrected": the service never held it), and the real print
 * later alerts; a forged print just before the real one has its alert replaced in place by
 * the real print: one alert, the real number (issue #44). The app core runs in desk
 * mode against a real relay and the simulator, both on loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { waitFor } from '../../support/wait.js';
import { createHighRelease } from '../../support/releases.js';

const SECRET = 'forged-test-webhook-secret';
/** 2100-01-01: what the attacker stamped, so it would beat every real update. */
const FAR_FUTURE = 4102444800;
let sim: RunningSimulator;
let relay: RunningRelay;
let app: AppService;

const made: EventDate[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 7, autoplay: false });
  // The releases the tests forge, made for them (what the demo week holds varies by day).
  for (let k = 0; k < 6; k++)
    made.push(
      await createHighRelease(sim.url, (2 + k) * 3_600_000, {
        name: `Forgery Target Index ${k}`,
        consensus: 4.5,
        previous: 4.2,
      }),
    );
  const relayData = mkdtempSync(join(tmpdir(), 'mb-forged-relay-'));
  relay = await startRelay({
    dataDir: relayData,
    secret: SECRET,
    token: 'forged-test-legacy-token',
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    gateway: { calendarUrl: sim.calendarUrl, newsUrl: sim.newsUrl },
  });
  const db = openRelayDatabase(relayData);
  const { token } = new UserDirectory(db).add('alice');
  db.close();
  app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-forged-app-')),
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    env: { MACROBELL_RELAY_URL: relay.url, MACROBELL_RELAY_TOKEN: token },
  });
  await app.start();
  const rules = await app.api.getAlertRules();
  await app.api.setAlertRules({
    ...rules,
    minVolatility: 'NONE',
    countries: [],
    currencies: [],
    changes: {
      released: true,
      revised: true,
      corrected: true,
      rescheduled: true,
      added: true,
      removed: true,
    },
  });
  await waitFor(
    () => made.every((m) => app.upcomingReleases(50).some((ed) => ed.id === m.id)),
    'the calendar through the gateway',
  );
  await waitFor(async () => (await app.api.getStatus()).relay?.connected, 'the relay stream');
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await relay?.close();
  await sim?.close();
});

async function postForged(body: unknown): Promise<void> {
  const res = await fetch(`${relay.webhookUrl}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(204);
}

const serviceRecord = (id: string) => sim.state.eventDates.get(id) as EventDate;
const alertKinds = async () => (await app.api.listAlerts({ limit: 1000 })).map((a) => a.kind);

describe('a forged notification from the far future', () => {
  it('shows the forged print once, then the service values come back and its alert is withdrawn in place', async () => {
    const target = made[0] as EventDate;
    expect(serviceRecord(target.id).actual).toBeNull();
    const before = (await alertKinds()).length;
    const started = Date.now();
    await postForged({
      type: 'eventDate_updated',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: FAR_FUTURE,
      changes: [{ key: 'actual', value: 9.75 }],
    });
    // The forgery reaches the app (the secret was good) and alerts once…
    await waitFor(async () => (await alertKinds()).length === before + 1, 'the forged alert');
    expect((await alertKinds())[0]).toBe('released');
    // …then the confirmation read puts the service's record back.
    await waitFor(
      async () => {
        const [shown] = await app.api.listEventDates({
          from: target.dateUtc,
          to: new Date(Date.parse(target.dateUtc) + 1000).toISOString(),
        });
        return shown?.id === target.id && shown.actual === null;
      },
      'the service value back',
      60_000,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    // The forged print alerted: its alert is withdrawn in place, never "corrected" (the
    // service never held 9.75) — still one alert.
    await waitFor(async () => (await alertKinds())[0] === 'withdrawn', 'the withdrawal');
    expect((await alertKinds()).length).toBe(before + 1);
    const [withdrawn] = await app.api.listAlerts({ limit: 1 });
    expect(withdrawn?.title).toMatch(/print withdrawn$/);
    // the forged value at the event's own precision
    expect(withdrawn?.body).toMatch(
      /^No print from the service yet; 9\.(8|75)(?!\d) came in a notification/,
    );

    // The real print later is news of its own: the forgery's alert does not hold it back.
    const patched = await fetch(`${sim.url}/_sim/event-dates/${target.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ actual: 3.25 }),
    });
    expect(patched.status).toBe(200);
    const printed = serviceRecord(target.id);
    await postForged({
      type: 'eventDate_updated',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: printed.lastUpdated,
      changes: [{ key: 'actual', value: 3.25 }],
    });
    await waitFor(async () => (await alertKinds()).length === before + 2, 'the real print alert');
    const [latest] = await app.api.listAlerts({ limit: 1 });
    expect(latest?.kind).toBe('released');
    expect(latest?.body).toContain('3.25');
  });

  it('brings back an event date a forged deletion removed, with no alert for its return', async () => {
    const target = made[1] as EventDate;
    await postForged({
      type: 'eventDate_deleted',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: FAR_FUTURE,
    });
    const before = await alertKinds();
    await waitFor(async () => (await alertKinds())[0] === 'removed', 'the forged removal');
    await waitFor(
      () => app.upcomingReleases(50).some((ed) => ed.id === target.id),
      'the date listed again',
      60_000,
    );
    expect(await alertKinds()).toEqual(['removed', ...before]);
  });
});

describe('a forged notification stamped now, or just inside the clock-skew allowance', () => {
  for (const [i, aheadSec] of [0, 119].entries())
    it(`is healed at the next read when stamped now + ${aheadSec} s, and the real print alerts`, async () => {
      const target = made[2 + i] as EventDate;
      expect(serviceRecord(target.id).actual).toBeNull();
      const before = (await alertKinds()).length;
      await postForged({
        type: 'eventDate_updated',
        eventDateId: target.id,
        eventId: target.eventId,
        lastUpdated: Math.floor(Date.now() / 1000) + aheadSec,
        changes: [{ key: 'actual', value: 999 }],
      });
      await waitFor(async () => (await alertKinds()).length === before + 1, 'the forged alert');
      const shown = async () =>
        (
          await app.api.listEventDates({
            from: target.dateUtc,
            to: new Date(Date.parse(target.dateUtc) + 1000).toISOString(),
          })
        ).find((ed) => ed.id === target.id);
      await waitFor(async () => (await shown())?.actual === null, 'the service value back', 60_000);
      await waitFor(async () => (await alertKinds())[0] === 'withdrawn', 'the withdrawal');
      expect((await alertKinds()).length).toBe(before + 1);

      const patched = await fetch(`${sim.url}/_sim/event-dates/${target.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ actual: 49.9 }),
      });
      expect(patched.status).toBe(200);
      await postForged({
        type: 'eventDate_updated',
        eventDateId: target.id,
        eventId: target.eventId,
        lastUpdated: serviceRecord(target.id).lastUpdated,
        changes: [{ key: 'actual', value: 49.9 }],
      });
      await waitFor(async () => (await shown())?.actual === 49.9, 'the real print', 60_000);
      await waitFor(async () => {
        const [latest] = await app.api.listAlerts({ limit: 1 });
        return latest?.kind === 'released' && latest.body.includes('49.9');
      }, 'the real print alert');
    });

  it('brings back a date a deletion stamped now removed', async () => {
    const target = made[4] as EventDate;
    await postForged({
      type: 'eventDate_deleted',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: Math.floor(Date.now() / 1000),
    });
    await waitFor(async () => (await alertKinds())[0] === 'removed', 'the forged removal');
    await waitFor(
      () => app.upcomingReleases(50).some((ed) => ed.id === target.id),
      'the date listed again',
      60_000,
    );
  });
});

describe('a forged print posted just before the real one', () => {
  it('has its alert replaced in place by the real print: one alert, the real number, never "corrected"', async () => {
    const target = made[5] as EventDate;
    const alertsOf = async () =>
      (await app.api.listAlerts({ limit: 1000 }))
        .filter((a) => a.target?.type === 'eventDate' && a.target.eventDateId === target.id)
        .map((a) => ({ id: a.id, kind: a.kind, body: a.body }));
    await postForged({
      type: 'eventDate_updated',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: Math.floor(Date.now() / 1000) + 119,
      changes: [{ key: 'actual', value: 999 }],
    });
    await waitFor(async () => (await alertsOf()).length === 1, 'the forged alert');
    const forgedId = (await alertsOf())[0]?.id;
    // The real print, a moment later (a miss: consensus 4.5).
    const patched = await fetch(`${sim.url}/_sim/event-dates/${target.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ actual: 4.25 }),
    });
    expect(patched.status).toBe(200);
    await postForged({
      type: 'eventDate_updated',
      eventDateId: target.id,
      eventId: target.eventId,
      lastUpdated: serviceRecord(target.id).lastUpdated,
      changes: [{ key: 'actual', value: 4.25 }],
    });
    // One alert, the real number: the forged alert is replaced in place (same id), never
    // "corrected, was 999".
    await waitFor(
      async () => (await alertsOf())[0]?.body.includes('4.25'),
      'the real print in the alert',
      60_000,
    );
    const after = await alertsOf();
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(forgedId);
    expect(after[0]?.kind).toBe('released');
    // The trader who saw 999 reads what replaced it, and that the service never held it.
    expect(after[0]?.body).toMatch(
      /^4\.25 vs .* \(replaces 999(\.0+)?, which the service never confirmed\)$/,
    );
    const shown = (
      await app.api.listEventDates({
        from: target.dateUtc,
        to: new Date(Date.parse(target.dateUtc) + 1000).toISOString(),
      })
    ).find((ed) => ed.id === target.id);
    expect(shown?.actual).toBe(4.25);
  });
});
