/**
 * Alerts to the desk's chat: a loopback receiver stands in for Slack. The relay's clock is a
 * manual one, so "9 minutes before the release" and "after it" are reached by moving it.
 * ana and ben watch the next HIGH release and have no desktop: one alert each; ana's
 * desktop connects: exactly one recovery for ana; the release passes with ben still away:
 * one "missed" message and a missed window counted.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { startChatReceiver, type ChatReceiver } from '../relay/chat-receiver.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startDesktop, type Desktop } from './desktops.js';
import { createHighRelease } from '../../support/releases.js';

let sim: RunningSimulator;
let relay: RunningRelay;
let receiver: ChatReceiver;
let desktop: Desktop | null = null;
let received: string[] = [];
const tokens: Record<string, string> = {};
let releaseAt = 0;
let releaseName = '';
// The release is made two hours ahead, whatever the day; its name carries regex characters.
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
let clock = 0;

beforeAll(async () => {
  receiver = await startChatReceiver();
  received = receiver.texts;
  sim = await startSimulator({ seed: 4, autoplay: false, speed: 0, log: () => undefined });
  const next = await createHighRelease(sim.url, 2 * 3_600_000, {
    name: 'Core PCE Price Index (MoM)',
  });
  releaseAt = Date.parse(next.dateUtc);
  releaseName = next.name;
  clock = releaseAt - 30 * 60_000;
  const data = tempDir('mb-desk-alerts-');
  const users = new UserDirectory(openRelayDatabase(data));
  for (const n of ['ana', 'ben']) tokens[n] = users.add(n).token;
  users.db.close();
  relay = await startRelay({
    dataDir: data,
    secret: 'alerts-secret',
    token: 'alerts-legacy',
    nodeName: 'node-a',
    now: () => clock,
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
    deskAlerts: { webhookUrl: receiver.url, leadMinutes: 10, checkEveryMs: 0 },
  });
  for (const n of ['ana', 'ben']) {
    const res = await request(`${relay.url}/watchlist`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens[n]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ eventIds: [next.eventId] }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  }
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  await relay?.close();
  await sim?.close();
  await receiver?.close();
});

describe('desk alerts', () => {
  it('posts one alert and one recovery per trader, and a missed window once', async () => {
    await relay.checkDeskAlerts();
    expect(received).toEqual([]); // 30 min before: outside the 10 min lead

    clock = releaseAt - 9 * 60_000;
    await relay.checkDeskAlerts();
    await relay.checkDeskAlerts();
    expect(received.sort()).toEqual([
      expect.stringMatching(
        new RegExp(
          `^:warning: ana would miss ${literal(releaseName)}.*in 9 min: no desktop connected`,
        ),
      ),
      expect.stringMatching(/^:warning: ben would miss/),
    ]);

    desktop = startDesktop({
      name: 'ana',
      url: relay.url,
      token: tokens.ana as string,
      desktopId: 'desk-ana-0001',
    });
    await waitFor(async () => {
      await relay.checkDeskAlerts();
      return received.length === 3;
    }, "ana's recovery");
    expect(received[2]).toMatch(/^:white_check_mark: ana is connected and current again/);
    await relay.checkDeskAlerts();
    expect(received).toHaveLength(3);

    clock = releaseAt + 60_000;
    await relay.checkDeskAlerts();
    await relay.checkDeskAlerts();
    expect(received).toHaveLength(4);
    expect(received[3]).toMatch(
      new RegExp(
        `^:x: ben missed ${literal(releaseName)} .*: no desktop connected when it printed\\.$`,
      ),
    );
    expect(received[3]).not.toMatch(/ in \d+ min/);
    const metrics = await relay.metrics();
    expect(metrics).toContain(
      'macrobell_relay_desk_alerts_total{kind="would_miss",phase="alert"} 2',
    );
    expect(metrics).toContain(
      'macrobell_relay_desk_alerts_total{kind="would_miss",phase="recovery"} 1',
    );
    expect(metrics).toContain('macrobell_relay_missed_windows_total 1');
  }, 60_000);
});
