// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Chaos: a compressed trading day with faults, three real processes on loopback — the
 * simulator (the service, playing its own day), the relay, and the app core — and a HIGH
 * release printing every few seconds besides. Scripted faults: webhooks dropped, the relay
 * killed with SIGKILL and restarted, API 503s, every token expired early, and the app
 * frozen for longer than the wake detector's threshold (a laptop lid closed).
 * Asserts: every release the rules alert on is alerted, none twice; while webhooks are
 * dropped, print → alert stays within the safety net's cadence; the state shown is the
 * truth (not Live while blind past the grace; not Offline 10 s after recovery).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { registerWebhook } from '../../fixtures/webhooks.js';
import { exited, spawnRelay, tempDir, type RelayProcess } from '../relay/helpers.js';
import {
  children,
  freePort,
  killChildren,
  sleepUntil,
  spawnSimulator,
  spawnLines,
  until,
} from './processes.js';

const KEYS = { id: 'chaos-public', secret: 'chaos-private' };
const RELAY = { secret: 'chaos-hook', token: 'chaos-desktop' };
/** The safety net's default fast cadence (settings.polling.burstIntervalSec). */
const CADENCE_MS = 2_000;
afterAll(killChildren);

describe('chaos: a trading day with faults', () => {
  it('alerts every release once, on time while blind, and never lies about the state', async () => {
    // ── the service ──────────────────────────────────────────────────────────────────
    const { url: simUrl, control } = await spawnSimulator(KEYS, '31');
    const state = () => control<{ webhooks: { calendar: unknown[] } }>('GET', '/_sim/state');

    // ── the relay (a fixed port, so it can come back where the service delivers) ──────
    const relayPort = await freePort();
    const relayData = tempDir('mb-chaos-relay-');
    const relayEnv = { MACROBELL_RELAY_SECRET: RELAY.secret, MACROBELL_RELAY_TOKEN: RELAY.token };
    const relayArgs = ['--port', String(relayPort), '--data', relayData];
    let relay: RelayProcess = await spawnRelay(relayArgs, relayEnv);
    children.push(relay.child);
    await registerWebhook({
      authUrl: `${simUrl}/auth`,
      apiUrl: `${simUrl}/calendar`,
      clientId: KEYS.id,
      clientSecret: KEYS.secret,
      url: `${relay.url}/hooks/${RELAY.secret}`,
    });
    expect((await state()).webhooks.calendar).toHaveLength(1);

    // ── the app core ─────────────────────────────────────────────────────────────────
    const app = spawnLines(['test/integration/chaos/app-process.ts'], {
      CHAOS_DATA_DIR: tempDir('mb-chaos-app-'),
      CHAOS_PUBLIC_KEY: KEYS.id,
      CHAOS_PRIVATE_KEY: KEYS.secret,
      CHAOS_RELAY_TOKEN: RELAY.token,
      MACROBELL_AUTH_URL: `${simUrl}/auth`,
      MACROBELL_CALENDAR_URL: `${simUrl}/calendar`,
      MACROBELL_NEWS_URL: `${simUrl}/news`,
      MACROBELL_RELAY_URL: relay.url,
    });
    await until(() => app.lines.find((l) => l.t === 'ready'), 'the app', 60_000);
    await until(
      () => app.lines.filter((l) => l.t === 'state').at(-1)?.state === 'live',
      'the app to be live',
    );

    // ── the day: a HIGH release every 5 s, faults on a script ────────────────────────
    const t0 = Date.now();
    const at = (s: number) => t0 + s * 1000;
    const eventId = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0]?.eventId as string;
    const scripted: { ed: EventDate; printedAt: number | null }[] = [];
    for (let s = 10; s <= 140; s += 5) {
      const ed = await control<EventDate>('POST', '/_sim/event-dates', {
        eventId,
        dateUtc: new Date(at(s)).toISOString(),
        volatility: 'HIGH',
      });
      scripted.push({ ed, printedAt: null });
    }
    const printer = (async () => {
      for (const [i, r] of scripted.entries()) {
        await sleepUntil(Date.parse(r.ed.dateUtc));
        await control('PATCH', `/_sim/event-dates/${r.ed.id}`, { actual: 100 + i });
        r.printedAt = Date.now();
      }
    })();
    const marks: Record<string, number> = {};
    await sleepUntil(at(25));
    await control('POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    marks.dropFrom = Date.now(); // prints from now on reach no one
    await sleepUntil(at(55));
    await control('DELETE', '/_sim/faults');
    marks.dropTo = Date.now();
    await sleepUntil(at(60));
    relay.child.kill('SIGKILL');
    await exited(relay.child);
    await sleepUntil(at(66));
    relay = await spawnRelay(relayArgs, relayEnv);
    children.push(relay.child);
    await sleepUntil(at(75));
    await control('POST', '/_sim/faults', { api: { status: 503, count: 1_000_000 } });
    marks.apiDown = Date.now();
    await sleepUntil(at(90));
    await control('DELETE', '/_sim/faults');
    marks.apiBack = Date.now();
    await sleepUntil(at(95));
    await control('POST', '/_sim/faults', { expireTokens: true });
    await sleepUntil(at(100));
    app.child.kill('SIGSTOP'); // the lid closes: no timers, no reads
    await sleepUntil(at(135));
    app.child.kill('SIGCONT');
    await printer;
    // every path has had its chance: the safety net's slow phase and the catch-ups
    await sleepUntil(Date.now() + 20_000);
    app.child.kill('SIGTERM');
    const history = await until(
      () => app.lines.find((l) => l.t === 'history'),
      'the history',
    ).catch((err: Error) => {
      const tail = app.lines.slice(-5).map((l) => JSON.stringify(l).slice(0, 300));
      throw new Error(
        `${err.message}; app exit ${app.child.exitCode}/${app.child.signalCode}; stderr: ${app.stderr().slice(-2000)}; last lines: ${tail.join('\n')}`,
      );
    });
    const endedAt = Date.now();

    // ── every release the rules alert on: alerted, once ──────────────────────────────
    const printed = (await control<EventDate[]>('GET', '/_sim/event-dates')).filter(
      (d) =>
        d.actual !== null &&
        d.volatility === 'HIGH' &&
        d.lastUpdated * 1000 >= t0 &&
        d.lastUpdated * 1000 <= endedAt - 20_000,
    );
    expect(printed.length).toBeGreaterThanOrEqual(scripted.length);
    const released = (history.alerts as { kind: string; id: string }[]).filter(
      (a) => a.kind === 'released',
    );
    const missing = printed.filter((d) => !released.some((a) => a.id === d.id)).map((d) => d.name);
    expect(missing, 'releases never alerted').toEqual([]);
    const twice = released.filter((a, i) => released.findIndex((b) => b.id === a.id) !== i);
    expect(twice, 'releases alerted twice').toEqual([]);

    // ── while webhooks were dropped: print → alert within the safety net's cadence ───
    const alertAt = (id: string) =>
      app.lines.find((l) => l.t === 'alert' && l.kind === 'released' && l.id === id)?.at;
    const blind = scripted.filter(
      (r) => r.printedAt !== null && r.printedAt > marks.dropFrom! && r.printedAt < marks.dropTo!,
    );
    expect(blind.length).toBeGreaterThanOrEqual(5);
    const delays = blind.map((r) => (alertAt(r.ed.id) as number) - (r.printedAt as number));
    expect(Math.max(...delays), `delays ${delays.join(', ')} ms`).toBeLessThanOrEqual(
      CADENCE_MS + 1_000,
    );

    // ── the state told the truth ─────────────────────────────────────────────────────
    const states = app.lines.filter((l) => l.t === 'state');
    const stateAt = (ms: number) => states.filter((l) => l.at <= ms).at(-1)?.state;
    // blind from the first print of the drop; the net's grace (10 s) later it says so
    const firstBlind = blind[0]?.printedAt as number;
    for (let ms = firstBlind + 10_000 + CADENCE_MS + 1_000; ms < marks.dropTo!; ms += 500) {
      expect(stateAt(ms), `state ${ms - t0} ms into the day`).not.toBe('live');
    }
    // the service answered again: not Offline 10 s later
    for (let ms = marks.apiBack! + 10_000; ms < at(100); ms += 500) {
      expect(stateAt(ms), `state ${ms - t0} ms into the day`).not.toBe('offline');
    }
    // The API outage is shown: Offline, or "Live — API unavailable" while webhooks still
    // arrive through the relay (which is up during it).
    const outage = states.filter((l) => l.at >= marks.apiDown! && l.at <= marks.apiBack!);
    expect(outage.some((l) => l.state === 'offline' || l.state === 'apiDown')).toBe(true);
    expect(states.some((l) => l.state === 'late')).toBe(true);
    expect(states.at(-1)?.state).toBe('live');
  }, 300_000);
});
